import { referralWithdrawals, referrals } from './resource';
import { MIN_WITHDRAWAL_CENTS, toCents } from './schemas';
import { HttpError, notFound } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { maskEmail, recordActivity } from '../../server/handlers/activity';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export const referralHandlers = defineHandlers(referrals, {
  actions: {
    async summary(ctx) {
      const { users, referrals: repo } = ctx.app.services;
      const user = await users.findById(ctx.uid);
      if (!user) throw notFound();
      const { page, perPage } = ctx.query;
      const [balances, referred, withdrawals] = await Promise.all([
        repo.balances(ctx.uid),
        repo.referred(ctx.uid, page, perPage),
        repo.listWithdrawals(
          { userId: ctx.uid },
          { page: 1, perPage: 50, order: 'DESC', sort: 'created_at' },
          ['created_at'],
        ),
      ]);
      return {
        id: user.id,
        uuid: user.uuid,
        link: `${ctx.app.config.publicUrl}/register/${user.uuid}`,
        ...balances,
        min_withdrawal_cents: MIN_WITHDRAWAL_CENTS,
        referred: {
          total: referred.total,
          data: referred.rows.map((r) => ({
            email: maskEmail(r.email),
            joined_at: r.created_at,
            earned_cents: Number(r.earned ?? 0),
          })),
        },
        withdrawals,
      };
    },

    async withdraw(ctx) {
      const { referrals: repo } = ctx.app.services;
      const amount = toCents(ctx.body.amount);
      const id = await repo.withdraw(ctx.uid, {
        amount_cents: amount,
        method: ctx.body.method,
        details: ctx.body.details,
      });
      if (id === null) {
        const { withdrawable_cents } = await repo.balances(ctx.uid);
        throw new HttpError(409, `You can withdraw at most ${dollars(withdrawable_cents)}`, {
          amount: `At most ${dollars(withdrawable_cents)}`,
        });
      }
      await recordActivity(ctx, `Referral withdrawal of ${dollars(amount)} requested`);
      const request = (await repo.findWithdrawal(id))!;
      // The admins pay by hand: tell them there is something to pay (never the payout details).
      for (const to of await repo.adminEmails()) {
        await ctx.app.services.mailer.send({
          to,
          subject: `Referral withdrawal of ${dollars(amount)} to pay`,
          text: `${request.email} asked for a referral payout of ${dollars(amount)} by ${request.method === 'paypal' ? 'PayPal' : 'bank transfer'}.\n\nPay it and mark it paid at ${ctx.app.config.publicUrl}/admin/referrals\n`,
        });
      }
      return request;
    },
  },
});

export const referralWithdrawalHandlers = defineHandlers(referralWithdrawals, {
  list: (ctx) =>
    ctx.app.services.referrals.listWithdrawals(
      { status: ctx.query.status },
      ctx.query,
      referralWithdrawals.ops.list.sort,
    ),
  async update(ctx) {
    const { referrals: repo } = ctx.app.services;
    const id = Number(ctx.params.id);
    const found = await repo.findWithdrawal(id);
    if (!found) throw notFound('No such withdrawal request');
    const status = ctx.body.status;
    if (!status) throw new HttpError(400, 'Say paid or rejected', { status: 'Required' });
    if (!(await repo.settle(id, status, ctx.caller!.id))) {
      throw new HttpError(409, `This request is already ${found.status}`);
    }
    await recordActivity(
      ctx,
      `Referral withdrawal of ${dollars(found.amount_cents)} ${status === 'paid' ? 'paid' : 'rejected'}`,
      found.user_id,
    );
    return (await repo.findWithdrawal(id))!;
  },
  actions: {},
});
