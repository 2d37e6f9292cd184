import { PLAN_NAMES } from '../../resources/user-profile';

/** Plan ids of the spec: 1 Trial, 2 Free, 3 Basic, 4 Pro; admins show as Admin. */
export function planName(planId: number | null | undefined, isAdmin = false): string {
  if (isAdmin) return 'Admin';
  return (planId != null && PLAN_NAMES[planId]) || 'Unknown plan';
}
