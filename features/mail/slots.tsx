import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What mail adds to other features' pages: the mailboxes named in an app's delete dialog. */
export const slots: SlotFills = {
  'app.delete.details': lazy(() =>
    import('./AppDeleteDetails').then((m) => ({ default: m.AppDeleteDetails })),
  ),
};
