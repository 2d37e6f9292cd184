import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What billing adds to others' pages: the user's subscription and revenue in the admin profile,
 *  the panel's revenue on the admin dashboard. */
export const slots: SlotFills = {
  'admin.dashboard': lazy(() => import('./AdminRevenue')),
  'admin.user-profile.billing': lazy(() => import('./AdminUserBilling')),
};
