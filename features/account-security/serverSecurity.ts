import QRCode from 'qrcode';
import type { UserUpdate } from '../../resources/user-profile';
import { userSecurity } from '../../resources/user-security';
import { hashPassword, verifyPassword } from '../../server/auth/passwords';
import { reauthenticate } from '../../server/auth/reauth';
import { newTotpSecret, totpStep, totpUri } from '../../server/auth/totp';
import type { UserPatch, UserRow } from '../../server/db/schema';
import { recordActivity } from '../../server/handlers/activity';
import { actsForSomeoneElse } from '../../server/http/caller';
import { HttpError, fieldError, forbidden, notFound } from '../../server/http/errors';
import { type HandlerContext, defineHandlers, loadedChild } from '../../server/http/handlers';
import { mails } from '../../server/mail/templates';
import { MAX_API_KEYS } from '../../server/repositories/apiKeys';

const SENSITIVE: (keyof UserUpdate)[] = ['password', 'two_factor', 'two_factor_method', 'otp_code'];

/**
 * The password and two-factor part of `PUT users/{uid}`: only the account holder, never an admin
 * acting for them, and each change proven by the current password or a fresh code.
 * Returns the column changes and the activity messages to record.
 */
export async function securityChanges(
  ctx: HandlerContext<unknown, UserUpdate>,
  user: UserRow,
): Promise<{ patch: UserPatch; messages: string[]; passwordChanged: boolean }> {
  const body = ctx.body;
  const patch: UserPatch = {};
  const messages: string[] = [];
  if (!SENSITIVE.some((field) => body[field] !== undefined))
    return { patch, messages, passwordChanged: false };
  if (!ctx.caller || actsForSomeoneElse(ctx.caller, user.id)) {
    throw forbidden('Only the account holder can change the password or two-factor sign-in');
  }
  const { box, codes } = ctx.app.services;
  const passwordOk = async () =>
    body.current_password !== undefined &&
    (await verifyPassword(user.password_hash, body.current_password));

  if (body.password !== undefined) {
    if (!(await passwordOk()))
      throw fieldError('current_password', 'Current password is incorrect');
    patch.password_hash = await hashPassword(body.password);
    messages.push('Password changed');
  }

  if (body.two_factor === true) {
    const method = body.two_factor_method ?? 'email';
    // A stolen token alone must not switch on an attacker's authenticator and lock the owner out.
    if (!(await passwordOk())) {
      throw fieldError('current_password', 'Enter your current password');
    }
    if (!body.otp_code)
      throw fieldError('otp_code', 'Enter the code to confirm two-factor sign-in');
    if (method === 'totp') {
      const pending = user.totp_pending_secret ? box.open(user.totp_pending_secret) : null;
      const step = pending ? totpStep(pending, body.otp_code, ctx.app.services.clock()) : null;
      if (!pending || step === null)
        throw fieldError('otp_code', 'The code does not match; check the authenticator app');
      Object.assign(patch, {
        totp_secret: user.totp_pending_secret,
        totp_pending_secret: null,
        totp_last_step: step,
      });
    } else if (!(await codes.consumeLatest(user.id, 'verify', body.otp_code))) {
      throw fieldError('otp_code', 'Invalid or expired code');
    }
    Object.assign(patch, { two_factor: 1, two_factor_method: method });
    messages.push(
      `Two-factor sign-in enabled (${method === 'totp' ? 'authenticator app' : 'emailed code'})`,
    );
  } else if (body.two_factor === false && user.two_factor) {
    if (!(await passwordOk()))
      throw fieldError('current_password', 'Current password is incorrect');
    Object.assign(patch, {
      two_factor: 0,
      two_factor_method: null,
      totp_secret: null,
      totp_pending_secret: null,
    });
    messages.push('Two-factor sign-in disabled');
  }
  return { patch, messages, passwordChanged: body.password !== undefined };
}

/**
 * After a password change every other session ends (the one that made the change stays) and,
 * as the repository's update already did, every API key of the account is revoked.
 */
export async function afterPasswordChange(ctx: HandlerContext<unknown, unknown>, user: UserRow) {
  const { sessions, mailer } = ctx.app.services;
  await sessions.revokeAll(user.id, { except: ctx.caller?.sessionId });
  await mailer.send(mails.passwordChanged(user.email));
}

/** The account's API keys and authenticator enrolment (resources/user-security.ts). */
export const securityHandlers = defineHandlers(userSecurity, {
  actions: {
    async generateApiKey(ctx) {
      const { users } = ctx.app.services;
      const user = await users.findById(ctx.uid);
      if (!user) throw notFound();
      // A stolen token alone must not become lasting access: the password (and second factor).
      await reauthenticate(ctx.app.services, user, ctx.body, ctx.app.services.clock);
      if ((await users.apiKeys.count(user.id)) >= MAX_API_KEYS) {
        throw new HttpError(409, `You have ${MAX_API_KEYS} API keys: revoke one first`);
      }
      const label = ctx.body.label ?? '';
      const key = await users.apiKeys.create(user.id, label);
      await recordActivity(ctx, `API key created${label ? ` (${label})` : ''}`);
      return key;
    },

    async apiKeys(ctx) {
      const data = await ctx.app.services.users.apiKeys.list(ctx.uid);
      return { data, total: data.length };
    },

    async revokeApiKey(ctx) {
      // Loaded through `{uid}` by the request hook.
      const { id } = loadedChild(ctx.child);
      if (!(await ctx.app.services.users.apiKeys.revoke(id, ctx.uid))) throw notFound();
      await recordActivity(ctx, 'API key revoked');
      return { id };
    },

    async totpEnrol(ctx) {
      const { users, box } = ctx.app.services;
      const user = await users.findById(ctx.uid);
      if (!user) throw notFound();
      const secret = newTotpSecret();
      await users.update(user.id, { totp_pending_secret: box.seal(secret) });
      const otpauth_url = totpUri(secret, user.email);
      return {
        otpauth_url,
        secret,
        qr: await QRCode.toDataURL(otpauth_url, { margin: 1, width: 220 }),
      };
    },
  },
});
