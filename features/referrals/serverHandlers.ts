import { referralWithdrawals, referrals, withdrawRequests } from './resource';
import { MIN_WITHDRAWAL_CENTS, type SettledStatus, WITHDRAW_ACTIONS, toCents } from './schemas';
import { HttpError, notFound } from '../../server/http/errors';
import { type HandlerContext, type ListQueryOf, defineHandlers } from '../../server/http/handlers';
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

const DONE: Record<SettledStatus, string> = {
  approved: 'approved',
  paid: 'paid',
  rejected: 'rejected (its amount returned to the balance)',
};

/**
 * One request moved on by an admin, for both routes (`admin/referrals/{id}` and
 * `admin/withdraw-requests?id=&action=`): race-safe in the repository, audited in the user's
 * activity with the admin's name.
 */
async function settleRequest(ctx: HandlerContext, id: number, status: SettledStatus) {
  const { referrals: repo } = ctx.app.services;
  const found = await repo.findWithdrawal(id);
  if (!found) throw notFound('No such withdrawal request');
  if (!(await repo.settle(id, status, ctx.caller!.id))) {
    const current = (await repo.findWithdrawal(id))?.status ?? found.status;
    throw new HttpError(
      409,
      current === status
        ? `This request is already ${current}`
        : `This request is ${current}: it cannot be ${status}`,
    );
  }
  await recordActivity(
    ctx,
    `Referral withdrawal #${id} of ${dollars(found.amount_cents)} ${DONE[status]}`,
    found.user_id,
  );
  return (await repo.findWithdrawal(id))!;
}

const listWithdrawals = (ctx: HandlerContext<ListQueryOf<typeof referralWithdrawals>>) =>
  ctx.app.services.referrals.listWithdrawals(
    { status: ctx.query.status },
    ctx.query,
    referralWithdrawals.ops.list.sort,
  );

export const referralWithdrawalHandlers = defineHandlers(referralWithdrawals, {
  list: listWithdrawals,
  async update(ctx) {
    const status = ctx.body.status;
    if (!status) throw new HttpError(400, 'Say approved, paid or rejected', { status: 'Required' });
    return settleRequest(ctx, Number(ctx.params.id), status);
  },
  actions: {},
});

/** The spec's paths for the same requests: the same list and the same change. */
export const withdrawRequestHandlers = defineHandlers(withdrawRequests, {
  list: listWithdrawals,
  actions: {
    change: (ctx) => settleRequest(ctx, ctx.query.id, WITHDRAW_ACTIONS[ctx.query.action]),
  },
});
