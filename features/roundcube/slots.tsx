import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What Roundcube adds to other features' pages: its page, from a Roundcube app's summary. */
export const slots: SlotFills = {
  'app.actions': lazy(() => import('./RoundcubeLink').then((m) => ({ default: m.RoundcubeLink }))),
};
