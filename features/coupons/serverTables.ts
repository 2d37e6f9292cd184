import type { Generated, Selectable } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';

export interface CouponsTable {
  id: Generated<number>;
  /** As the admin typed it. */
  code: string;
  /** Lower case: the unique key codes are matched by. */
  code_key: string;
  kind: 'percent' | 'fixed';
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  duration: 'once' | 'recurring' | 'forever';
  duration_periods: number | null;
  /** Comma-separated package ids; empty: every package. */
  plan_ids: string;
  expires_at: Timestamp | null;
  max_redemptions: number | null;
  redeemed: number;
  active: Flag;
  /** Deleted after it was redeemed: kept for its redemptions, no longer listed or redeemable. */
  retired_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CouponRedemptionsTable {
  id: Generated<number>;
  coupon_id: number;
  user_id: number;
  /** The package it was redeemed for. */
  plan_id: number;
  redeemed_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    coupons: CouponsTable;
    coupon_redemptions: CouponRedemptionsTable;
  }
}

export type CouponRow = Selectable<CouponsTable>;
