import type { Coupon } from './resource';
import type { CouponRow } from './serverTables';

export const planIdsOf = (text: string) => (text ? text.split(',').map(Number) : []);

export const couponRecord = (row: CouponRow): Coupon => ({
  id: row.id,
  code: row.code,
  kind: row.kind,
  percent_off: row.percent_off,
  amount_off: row.amount_off,
  currency: row.currency,
  duration: row.duration,
  duration_periods: row.duration_periods,
  plan_ids: planIdsOf(row.plan_ids),
  expires_at: row.expires_at,
  max_redemptions: row.max_redemptions,
  redeemed: row.redeemed,
  active: Boolean(row.active),
  created_at: row.created_at,
  updated_at: row.updated_at,
});
