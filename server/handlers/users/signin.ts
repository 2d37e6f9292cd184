import type { users } from '../../../resources/users';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords';
import { totpStep } from '../../auth/totp';
import type { UserRow } from '../../db/schema';
import { HttpError, unauthorized } from '../../http/errors';
import type { HandlerContext, ResourceHandlers } from '../../http/handlers';
import { mails } from '../../mail/templates';

type Actions = ResourceHandlers<typeof users>['actions'];

/** Checks a second-factor code: the mailed sign-in code, or a TOTP code used at most once. */
async function secondFactorOk(ctx: HandlerContext<unknown, unknown>, user: UserRow, code: string) {
  const { codes, users, box } = ctx.app.services;
  if (user.two_factor_method === 'totp') {
    if (!user.totp_secret) return false;
    const step = totpStep(box.open(user.totp_secret), code, ctx.app.services.clock());
    return step !== null && (await users.advanceTotpStep(user.id, step));
  }
  return codes.consumeLatest(user.id, 'login', code);
}

export const signinActions: Pick<Actions, 'login' | 'logout'> = {
  async login(ctx) {
    const { users, logs, sessions, codes, mailer } = ctx.app.services;
    const email = ctx.body.email.trim().toLowerCase();
    const attempt = (userId: number | null, outcome: string) =>
      logs.authAttempt({ userId, email, outcome, ...ctx.origin });
    const invalid = unauthorized('Invalid email or password');

    const user = await users.findByEmail(email);
    if (!user) {
      await burnPasswordCheck(ctx.body.password);
      await attempt(null, 'unknown_user');
      throw invalid;
    }
    if (!(await verifyPassword(user.password_hash, ctx.body.password))) {
      await attempt(user.id, 'bad_password');
      throw invalid;
    }
    if (user.disabled) {
      await attempt(user.id, 'disabled');
      throw new HttpError(403, 'This account is disabled');
    }
    if (!user.confirmed) {
      await attempt(user.id, 'unconfirmed');
      throw new HttpError(
        403,
        'Confirm your account first: enter the code we mailed you',
        undefined,
        {
          uuid: user.uuid,
          unconfirmed: true,
        },
      );
    }
    if (user.two_factor) {
      const method = user.two_factor_method ?? 'email';
      if (!ctx.query.otp) {
        if (method === 'email') {
          const { code } = await codes.issue(user.id, 'login');
          await mailer.send(mails.loginCode(user.email, code));
        }
        await attempt(user.id, 'otp_sent');
        return { otp_required: true as const, method };
      }
      if (!(await secondFactorOk(ctx, user, ctx.query.otp))) {
        await attempt(user.id, 'otp_failed');
        throw new HttpError(401, 'Invalid or expired code', { otp: 'Invalid or expired code' });
      }
    }
    // The spec generates a key pair at sign-in for an account without one. Its secret would
    // never be shown, so that key could serve nobody but a thief: keys are minted only on
    // request (POST auth/gen/users/{uid}, with the password).
    const Token = await sessions.issue(user.id, ctx.origin);
    await attempt(user.id, 'success');
    if (user.login_notif)
      await mailer.send(mails.loginNotice(user.email, ctx.origin.ip, ctx.origin.userAgent));
    return {
      User: { id: user.id, is_admin: Boolean(user.is_admin), plan_id: user.plan_id },
      Token,
    };
  },

  async logout(ctx) {
    if (ctx.caller?.sessionId) await ctx.app.services.sessions.revoke(ctx.caller.sessionId);
    return { ok: true as const };
  },
};
