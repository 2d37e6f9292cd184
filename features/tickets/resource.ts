import type { ResourceDef } from '../../resources/define';
import { ticketAttachments, tickets } from '../../resources/tickets';

/** The resources of support tickets (issue 4). */
export const resources = {
  tickets,
  'ticket-attachments': ticketAttachments,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
