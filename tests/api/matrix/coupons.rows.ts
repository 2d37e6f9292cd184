import { redeemCoupon } from '../../../features/coupons/serverApi';
import { ADMIN, type Fixture, type Row, SELF } from './support';

/** A fresh coupon (`redeemedBy`: redeemed by that user), for the rows that read or remove one. */
let made = 0;
async function freshCoupon(f: Fixture, redeemedBy?: number): Promise<number> {
  made += 1;
  const code = `MATRIX${made}`;
  const at = new Date().toISOString();
  const row = await f.t.app.db
    .insertInto('coupons')
    .values({
      code,
      code_key: code.toLowerCase(),
      kind: 'percent',
      percent_off: 10,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_periods: null,
      plan_ids: '',
      expires_at: null,
      max_redemptions: null,
      redeemed: 0,
      active: 1,
      retired_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (redeemedBy !== undefined) {
    const r = await redeemCoupon(f.t.app.db, { code, userId: redeemedBy, planId: 3, now: at });
    if (!r.ok) throw new Error(r.message);
  }
  return row.id;
}

/**
 * Coupons: the admins' alone (admin staff do not see Coupons, spec s.6); a user reads a coupon
 * they redeemed on their own `{uid}` (an admin, on theirs, any coupon).
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/coupon', query: () => '?sort=code&order=ASC', expect: ADMIN },
  {
    route: 'POST /api/v1/coupon',
    body: (_, role) => ({ code: `BY-${role}`, kind: 'percent', percent_off: 10 }),
    expect: { ...ADMIN, admin: 201 },
  },
  {
    route: 'DELETE /api/v1/coupon/:id',
    params: async (f) => ({ id: await freshCoupon(f) }),
    expect: ADMIN,
  },
  {
    route: 'GET /api/v1/coupon/:couponId/users/:uid',
    params: async (f) => ({ couponId: await freshCoupon(f, f.owner.id) }),
    expect: SELF,
  },
];
