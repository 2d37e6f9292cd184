import type { BoundHandlers } from '../../http/handlers';
import { referralHandlers, referralWithdrawalHandlers } from '../referrals';

/** The server side of resources/areas/referrals.ts. */
export const referralsHandlers: readonly BoundHandlers[] = [
  referralHandlers,
  referralWithdrawalHandlers,
];
