import { sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import { type Db, now, toCount } from '../../server/db/database';
import { type Page, pageOf } from '../../server/repositories/paging';
import { type SettledStatus, TRANSITIONS, type Withdrawal } from './schemas';
import type { ReferralWithdrawalsTable } from './serverTables';

export class ReferralError extends Error {}

export interface Balances {
  earned_cents: number;
  withdrawn_cents: number;
  pending_cents: number;
  paid_cents: number;
  withdrawable_cents: number;
}

export class ReferralRepository {
  constructor(private readonly db: Db) {}

  /**
   * Credits the referrer for something the referred user did (billing calls this). The referred
   * user must have registered through the referrer's link; amounts are positive whole cents.
   */
  async recordEarning(
    referrerId: number,
    referredUserId: number,
    amountCents: number,
    reason: string,
  ): Promise<number> {
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
      throw new ReferralError('an earning is a positive whole number of cents');
    }
    if (referrerId === referredUserId) throw new ReferralError('nobody earns from themselves');
    const referred = await this.db
      .selectFrom('users')
      .select('referrer_id')
      .where('id', '=', referredUserId)
      .executeTakeFirst();
    if (!referred || referred.referrer_id !== referrerId) {
      throw new ReferralError('the user was not referred by this referrer');
    }
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('referral_earnings')
        .values({
          referrer_id: referrerId,
          referred_user_id: referredUserId,
          amount_cents: amountCents,
          reason: reason.slice(0, 200),
          created_at: now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('referral_accounts')
        .values({ user_id: referrerId, earned_cents: amountCents, withdrawn_cents: 0 })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            earned_cents: sql`referral_accounts.earned_cents + ${amountCents}`,
          }),
        )
        .execute();
      return id;
    });
  }

  async balances(userId: number): Promise<Balances> {
    const account = await this.db
      .selectFrom('referral_accounts')
      .select(['earned_cents', 'withdrawn_cents'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const byStatus = await this.db
      .selectFrom('referral_withdrawals')
      .select(['status', sql<number>`sum(amount_cents)`.as('total')])
      .where('user_id', '=', userId)
      .groupBy('status')
      .execute();
    const sum = (status: string) => toCount(byStatus.find((r) => r.status === status)?.total);
    const earned = Number(account?.earned_cents ?? 0);
    const withdrawn = Number(account?.withdrawn_cents ?? 0);
    return {
      earned_cents: earned,
      withdrawn_cents: withdrawn,
      pending_cents: sum('pending') + sum('approved'),
      paid_cents: sum('paid'),
      withdrawable_cents: earned - withdrawn,
    };
  }

  /** Users who registered through the referrer's link, with what each earned them. */
  async referred(referrerId: number, page: number, perPage: number) {
    const base = this.db.selectFrom('users').where('referrer_id', '=', referrerId);
    const { n } = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select((eb) => [
        'users.email',
        'users.created_at',
        eb
          .selectFrom('referral_earnings')
          .whereRef('referral_earnings.referred_user_id', '=', 'users.id')
          .where('referral_earnings.referrer_id', '=', referrerId)
          .select(sql<number>`coalesce(sum(amount_cents), 0)`.as('s'))
          .as('earned'),
      ])
      .orderBy('users.created_at', 'desc')
      .orderBy('users.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { rows, total: toCount(n) };
  }

  /**
   * A withdrawal request, atomic on both dialects: one conditional UPDATE moves the amount from
   * withdrawable to withdrawn only while the balance covers it. PostgreSQL re-checks the
   * condition on the locked row after a concurrent update commits; SQLite runs writers one at a
   * time. Twenty parallel requests for the whole balance therefore succeed once.
   */
  async withdraw(
    userId: number,
    request: { amount_cents: number; method: ReferralWithdrawalsTable['method']; details: string },
  ): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('referral_accounts')
        .set({ withdrawn_cents: sql`withdrawn_cents + ${request.amount_cents}` })
        .where('user_id', '=', userId)
        .where(sql<boolean>`earned_cents - withdrawn_cents >= ${request.amount_cents}`)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return null;
      const { id } = await trx
        .insertInto('referral_withdrawals')
        .values({ user_id: userId, ...request, status: 'pending', created_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    });
  }

  /** Who pays requests: every enabled admin. */
  async adminEmails(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('email')
      .where('is_admin', '=', 1)
      .where('disabled', '=', 0)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.email);
  }

  private withdrawals() {
    return this.db
      .selectFrom('referral_withdrawals')
      .innerJoin('users', 'users.id', 'referral_withdrawals.user_id')
      .select([
        'referral_withdrawals.id',
        'referral_withdrawals.user_id',
        'users.email',
        'referral_withdrawals.amount_cents',
        'referral_withdrawals.method',
        'referral_withdrawals.details',
        'referral_withdrawals.status',
        'referral_withdrawals.created_at',
        'referral_withdrawals.processed_at',
      ]);
  }

  async findWithdrawal(id: number): Promise<Withdrawal | undefined> {
    const row = await this.withdrawals()
      .where('referral_withdrawals.id', '=', id)
      .executeTakeFirst();
    return row ? { ...row, amount_cents: Number(row.amount_cents) } : undefined;
  }

  async listWithdrawals(
    filter: { userId?: number; status?: ReferralWithdrawalsTable['status'] },
    query: ListQuery,
    sortable: readonly string[],
  ): Promise<Page<Withdrawal>> {
    let q = this.db.selectFrom(this.withdrawals().as('w')).selectAll('w');
    if (filter.userId !== undefined) q = q.where('w.user_id', '=', filter.userId);
    if (filter.status) q = q.where('w.status', '=', filter.status);
    const page = await pageOf(q, query, sortable);
    return {
      total: page.total,
      data: page.data.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) })),
    };
  }

  /**
   * Moves a request on (TRANSITIONS): approved from pending, paid from approved, rejected from
   * either (its amount returns to the withdrawable balance). One conditional UPDATE ... WHERE
   * status IN (...) RETURNING decides, so of two changes at once exactly one happens (PostgreSQL
   * re-checks the condition on the locked row once the other commits; SQLite writes one at a
   * time): false for the other, and for a request already past it.
   */
  async settle(id: number, status: SettledStatus, adminId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('referral_withdrawals')
        .set({ status, processed_at: now(), processed_by: adminId })
        .where('id', '=', id)
        .where('status', 'in', [...TRANSITIONS[status]])
        .returning(['user_id', 'amount_cents'])
        .executeTakeFirst();
      if (!row) return false;
      if (status === 'rejected') {
        await trx
          .updateTable('referral_accounts')
          .set({ withdrawn_cents: sql`withdrawn_cents - ${row.amount_cents}` })
          .where('user_id', '=', row.user_id)
          .execute();
      }
      return true;
    });
  }
}
