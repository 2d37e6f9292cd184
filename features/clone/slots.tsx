import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What the clone adds to other features' pages: "Clone" on an app's summary. */
export const slots: SlotFills = {
  'app.actions': lazy(() => import('./CloneButton').then((m) => ({ default: m.CloneButton }))),
};
