import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What the installers add to other features' pages: "Install an app" by a server's apps. */
export const slots: SlotFills = {
  'server.apps.actions': lazy(() =>
    import('./InstallAppButton').then((m) => ({ default: m.InstallAppButton })),
  ),
};
