import { PRO_PLAN_ID } from '../../resources/user-profile';
import { planName } from '../generic/plans';

/**
 * The header's plan label (spec section 4): admins show as Admin, others by plan id; nothing
 * while the user record is still loading.
 */
export function planLabel(user: { plan_id: number } | null | undefined, isAdmin: boolean): string {
  if (!user && !isAdmin) return '';
  return planName(user?.plan_id, isAdmin);
}

/** "Upgrade to Pro" shows for non-admins whose plan is not Pro (spec section 6). */
export function showsUpgrade(user: { plan_id: number } | null | undefined, isAdmin: boolean) {
  return !isAdmin && user != null && user.plan_id !== PRO_PLAN_ID;
}
