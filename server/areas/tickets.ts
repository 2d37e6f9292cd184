import { TicketFiles, TicketRepository } from '../repositories/tickets';
import type { ServiceDeps } from '../serviceDeps';

/** The repositories and clients of support tickets (issue 4), merged into `app.services`. */
export interface TicketsServices {
  tickets: TicketRepository;
}

export function createTicketsServices(deps: ServiceDeps): TicketsServices {
  return { tickets: new TicketRepository(deps.db, new TicketFiles(deps.config.dataDir)) };
}
