/**
 * Redeeming a coupon, race-safe on SQLite and PostgreSQL (research business-and-scale 2.2): one
 * conditional UPDATE claims a redemption (`redeemed < max_redemptions`, active, unexpired) and
 * the redemption row is inserted in the same transaction, UNIQUE(coupon_id, user_id): of any
 * number of concurrent redemptions at most `max_redemptions` commit, and a user's second none.
 * PostgreSQL re-checks the UPDATE's condition on the row it waited for (READ COMMITTED); SQLite
 * runs one writer at a time. No lock is held across anything but these statements.
 */
import { type Transaction, sql } from 'kysely';
import type { Db } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { type Coupon, codeKey } from './resource';
import { couponRecord, planIdsOf } from './serverRecord';
import type { CouponRow } from './serverTables';

export type RedeemRefusal = 'unknown' | 'inactive' | 'expired' | 'exhausted' | 'plan' | 'already';

export type Redemption =
  | { ok: true; coupon: Coupon; redemptionId: number }
  | { ok: false; reason: RedeemRefusal; message: string };

export interface RedeemInput {
  code: string;
  userId: number;
  /** The package the coupon is redeemed for (a coupon may be limited to some). */
  planId: number;
  /** The panel's clock (an ISO time or a Date). */
  now: Date | string;
}

const words: Record<RedeemRefusal, (code: string) => string> = {
  unknown: (code) => `No coupon ${code}`,
  inactive: (code) => `The coupon ${code} is not redeemable`,
  expired: (code) => `The coupon ${code} has expired`,
  exhausted: (code) => `The coupon ${code} has been redeemed as often as it may be`,
  plan: (code) => `The coupon ${code} does not apply to this package`,
  already: (code) => `You have redeemed the coupon ${code} already`,
};

const refuse = (reason: RedeemRefusal, code: string): Redemption => ({
  ok: false,
  reason,
  message: words[reason](code),
});

/** A unique key refused the insert: on SQLite and on PostgreSQL. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Why a coupon the UPDATE did not claim is refused, as its row reads now. */
function whyNot(row: CouponRow, at: string): RedeemRefusal {
  if (!row.active) return 'inactive';
  if (row.expires_at !== null && row.expires_at <= at) return 'expired';
  return 'exhausted';
}

async function redeemIn(
  trx: Transaction<Database>,
  input: RedeemInput,
  at: string,
): Promise<Redemption> {
  const code = input.code.trim();
  const row = await trx
    .selectFrom('coupons')
    .selectAll()
    .where('code_key', '=', codeKey(code))
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  if (!row) return refuse('unknown', code);
  const plans = planIdsOf(row.plan_ids);
  if (plans.length && !plans.includes(input.planId)) return refuse('plan', row.code);
  const had = await trx
    .selectFrom('coupon_redemptions')
    .select('id')
    .where('coupon_id', '=', row.id)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  if (had) return refuse('already', row.code);
  const claimed = await trx
    .updateTable('coupons')
    .set({ redeemed: sql<number>`redeemed + 1`, updated_at: at })
    .where('id', '=', row.id)
    .where('active', '=', 1)
    .where('retired_at', 'is', null)
    .where((eb) =>
      eb.or([eb('max_redemptions', 'is', null), eb('redeemed', '<', eb.ref('max_redemptions'))]),
    )
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return refuse(whyNot(row, at), row.code);
  const redemption = await trx
    .insertInto('coupon_redemptions')
    .values({ coupon_id: row.id, user_id: input.userId, plan_id: input.planId, redeemed_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ok: true, coupon: couponRecord(claimed), redemptionId: redemption.id };
}

/**
 * Redeems `code` for a user and a package: `{ok: true, coupon}` when this call got one of its
 * redemptions, else `{ok: false, reason, message}` and nothing written. Given a transaction (the
 * caller's, say billing's with the subscription), it runs in it: a refusal writes nothing, and
 * on PostgreSQL a second redemption racing the first fails the caller's transaction at the
 * unique key (the error is thrown; `'already'` is answered when the other one has committed).
 */
export async function redeemCoupon(
  db: Db | Transaction<Database>,
  input: RedeemInput,
): Promise<Redemption> {
  const at =
    typeof input.now === 'string' ? new Date(input.now).toISOString() : input.now.toISOString();
  if (db.isTransaction) return redeemIn(db as Transaction<Database>, input, at);
  try {
    return await db.transaction().execute((trx) => redeemIn(trx, input, at));
  } catch (error) {
    if (isUniqueViolation(error)) return refuse('already', input.code.trim());
    throw error;
  }
}
