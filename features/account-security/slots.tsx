import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/**
 * What the account's security adds to the platform's pages: the password, two-factor and API key
 * cards on /my-profile, the active sessions on /login-activity.
 */
export const slots: SlotFills = {
  'profile.cards': lazy(() => import('./ProfileSecurityCards')),
  'login-activity.before': lazy(() =>
    import('./SessionsCard').then((m) => ({ default: () => <m.SessionsCard /> })),
  ),
};
