import type { ResourceDef } from '../../resources/define';
import { referralWithdrawals, referrals } from '../../resources/referrals';

/** The resources of referrals (issue 4). */
export const resources = {
  referrals,
  'referral-withdrawals': referralWithdrawals,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
