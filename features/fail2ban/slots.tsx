import { lazy } from 'react';
import type { SlotFills } from '../../src/shell/slots';

/** What fail2ban adds to other features' pages: its attempt limits on the security page. */
export const slots: SlotFills = {
  'server.security': lazy(() =>
    import('./AttemptLimitsCard').then((m) => ({
      default: ({ sid }: { sid: number }) => <m.AttemptLimitsCard serverId={sid} />,
    })),
  ),
};
