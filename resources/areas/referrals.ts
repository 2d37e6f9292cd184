import type { ResourceDef } from '../define';
import { referralWithdrawals, referrals } from '../referrals';

/** The resources of referrals (issue 4), merged into resources/index.ts. */
export const referralsResources = {
  referrals,
  'referral-withdrawals': referralWithdrawals,
} as const satisfies Record<string, ResourceDef>;
