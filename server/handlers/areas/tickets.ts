import type { BoundHandlers } from '../../http/handlers';
import { ticketHandlers } from '../tickets';

/** The server side of resources/areas/tickets.ts. */
export const ticketsHandlers: readonly BoundHandlers[] = [ticketHandlers];
