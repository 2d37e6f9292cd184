import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What phpMyAdmin adds to other features' pages: open it as a database user. */
export const slots: SlotFills = {
  'dbuser.actions': lazy(() =>
    import('./PhpMyAdminButton').then((m) => ({ default: m.PhpMyAdminButton })),
  ),
};
