import type { Generated } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

export interface ReferralEarningsTable {
  id: Generated<number>;
  referrer_id: number;
  referred_user_id: number | null;
  amount_cents: number;
  reason: string;
  created_at: Timestamp;
}

export interface ReferralAccountsTable {
  user_id: number;
  /** bigint: PostgreSQL hands it back as text, SQLite as a number; read with Number(). */
  earned_cents: Generated<number | string>;
  withdrawn_cents: Generated<number | string>;
}

export interface ReferralWithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  amount_cents: number;
  method: 'paypal' | 'bank';
  details: string;
  /** WITHDRAWAL_STATUSES (schemas.ts); varchar, so `approved` needed no migration. */
  status: 'pending' | 'approved' | 'paid' | 'rejected';
  created_at: Timestamp;
  processed_at: Timestamp | null;
  processed_by: number | null;
}

/**
 * The tables of referrals (issue 4): merged into `Database` (server/db/schema.ts), and their
 * migrations, merged into server/db/migrate.ts in name order.
 */
export interface ReferralsTables {
  referral_earnings: ReferralEarningsTable;
  referral_accounts: ReferralAccountsTable;
  referral_withdrawals: ReferralWithdrawalsTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends ReferralsTables {}
}
