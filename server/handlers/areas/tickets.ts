import type { BoundHandlers } from '../../http/handlers';

/** The server side of resources/areas/tickets.ts. */
export const ticketsHandlers: readonly BoundHandlers[] = [];
