/**
 * The firewall's event (server/events): its ignore list is enforced by another feature
 * (features/fail2ban), which subscribes, so the firewall imports none of it.
 */
import type { Before, EventDeclarations } from '../../server/events/types';
import type { HandlerContext } from '../../server/http/handlers';

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * The server's ignore list (`csf/ignore`: never banned for failed logins) changed in the
     * panel: the row is written; subscribers make the server enforce the list (fail2ban's jails
     * written again), naming the change in the activity log with `message`. A subscriber's error
     * takes the row back, and is the answer.
     */
    'firewall.ignore-changed': Before<{ ctx: HandlerContext<unknown, unknown>; message: string }>;
  }
}

export const firewallEvents: EventDeclarations = { 'firewall.ignore-changed': 'before' };
