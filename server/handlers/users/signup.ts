import type { users } from '../../../resources/users';
import { hashPassword } from '../../auth/passwords';
import { emit } from '../../events/emit';
import { fieldError, notFound } from '../../http/errors';
import type { ResourceHandlers } from '../../http/handlers';
import { mails } from '../../mail/templates';
import { maskEmail, recordActivity } from '../activity';

type Actions = ResourceHandlers<typeof users>['actions'];
const badCode = () => fieldError('code', 'Invalid or expired code');

export const signupActions: Pick<
  Actions,
  'register' | 'confirm' | 'confirmationEmail' | 'forgotPassword' | 'resetPassword' | 'sendOtp'
> = {
  /**
   * The answer is the same for a known address and a new one (status, body, and the time of a
   * password hash): registration must not tell who has an account. The known address's owner
   * gets a mail saying someone tried, with the way to sign in or reset the password.
   */
  async register(ctx) {
    const { users, codes, mailer } = ctx.app.services;
    const referrer = ctx.query.ref ? await users.findByUuid(ctx.query.ref) : undefined;
    // The features may refuse it first (features/referrals: a self-referral).
    await emit(ctx.app, 'user.registering', {
      email: ctx.body.email,
      referrer: referrer ? { id: referrer.id, email: referrer.email } : null,
    });
    const answer = { email: ctx.body.email };
    const password_hash = await hashPassword(ctx.body.password);
    const known = await users.findByEmail(ctx.body.email);
    if (known) {
      if (!known.disabled)
        await mailer.send(mails.registrationAttempt(known.email, ctx.app.config.publicUrl));
      return answer;
    }
    let user;
    try {
      user = await users.create({
        email: ctx.body.email,
        user_name: ctx.body.user_name,
        password_hash,
        referrer_id: referrer?.id ?? null,
      });
    } catch (error) {
      // Two registrations of one new address at once: the loser meets the unique index and
      // gets the same answer as any known address, not a 500.
      if (await users.findByEmail(ctx.body.email)) return answer;
      throw error;
    }
    const { code } = await codes.issue(user.id, 'confirm');
    const link = `${ctx.app.config.publicUrl}/confirm-account?uuid=${user.uuid}`;
    await mailer.send(mails.confirmAccount(user.email, code, link));
    await recordActivity(ctx, 'Account created', user.id);
    return answer;
  },

  async confirm(ctx) {
    const { users, codes } = ctx.app.services;
    const user = await users.findByUuid(ctx.body.uuid);
    if (!user) throw badCode();
    if (user.confirmed) return { confirmed: true as const };
    if (!(await codes.consumeLatest(user.id, 'confirm', ctx.body.code))) throw badCode();
    await users.update(user.id, { confirmed: 1 });
    await recordActivity(ctx, 'Account confirmed', user.id);
    return { confirmed: true as const };
  },

  async confirmationEmail(ctx) {
    const { users, codes, mailer } = ctx.app.services;
    const user = await users.findByUuid(ctx.query.uuid);
    if (!user) throw notFound('No account waits for confirmation under this link');
    if (ctx.query.resend === 'true' && !user.confirmed) {
      const { code } = await codes.issue(user.id, 'confirm');
      const link = `${ctx.app.config.publicUrl}/confirm-account?uuid=${user.uuid}`;
      await mailer.send(mails.confirmAccount(user.email, code, link));
    }
    return { email: maskEmail(user.email), confirmed: Boolean(user.confirmed) };
  },

  async forgotPassword(ctx) {
    const { users, codes, mailer } = ctx.app.services;
    const user = await users.findByEmail(ctx.query.em);
    // Unknown emails get a request id too, so the answer does not tell who has an account.
    const request = await codes.issue(user && !user.disabled ? user.id : null, 'reset');
    if (user && !user.disabled) {
      const link = `${ctx.app.config.publicUrl}/confirm-account-for-password-reset?id=${request.id}`;
      await mailer.send(mails.resetPassword(user.email, request.code, link));
    }
    return { id: request.id };
  },

  async resetPassword(ctx) {
    const { users, codes, sessions, mailer } = ctx.app.services;
    const setting = ctx.body.password !== undefined;
    const userId = await codes.checkById(ctx.body.id, 'reset', ctx.body.code, setting);
    if (userId === null) throw badCode();
    if (!setting) return { valid: true as const, changed: false };
    const user = await users.update(userId, {
      password_hash: await hashPassword(ctx.body.password!),
      confirmed: 1, // the mailbox is proven
    });
    await sessions.revokeAll(user.id);
    await recordActivity(ctx, 'Password reset by emailed code', user.id);
    await mailer.send(mails.passwordChanged(user.email));
    return { valid: true as const, changed: true };
  },

  async sendOtp(ctx) {
    const { users, codes, mailer } = ctx.app.services;
    const user = await users.findById(ctx.uid);
    if (!user) throw notFound();
    const { code } = await codes.issue(user.id, 'verify');
    await mailer.send(mails.verifyCode(user.email, code));
    return { sent: true };
  },
};
