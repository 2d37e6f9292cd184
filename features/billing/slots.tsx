import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What billing adds to others' pages: the user's subscription and revenue in the admin profile. */
export const slots: SlotFills = {
  'admin.user-profile.billing': lazy(() => import('./AdminUserBilling')),
};
