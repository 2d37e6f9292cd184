import * as tickets from '../../server/db/migrations/0005_tickets';
import { defineServerFeature } from '../../server/feature';
import type { ServiceDeps } from '../../server/serviceDeps';
import { TicketFiles } from './serverAttachments';
import { ticketAttachmentHandlers, ticketHandlers } from './serverHandlers';
import { TicketRepository, attachmentOfAccount, ticketOfAccount } from './serverRepository';

/** The repositories and clients of support tickets (issue 4). */
export interface TicketsServices {
  tickets: TicketRepository;
}

export function createTicketsServices(deps: ServiceDeps): TicketsServices {
  return { tickets: new TicketRepository(deps.db, new TicketFiles(deps.config.dataDir)) };
}

declare module '../../server/http/children' {
  interface FeatureChildRows {
    tickets: NonNullable<Awaited<ReturnType<typeof ticketOfAccount>>>;
    'ticket-attachments': NonNullable<Awaited<ReturnType<typeof attachmentOfAccount>>>;
  }
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends TicketsServices {}
}

/** The panel side of the feature (issue 4's account area). */
export const server = defineServerFeature({
  handlers: [ticketHandlers, ticketAttachmentHandlers],
  accountChildren: { tickets: ticketOfAccount, 'ticket-attachments': attachmentOfAccount },
  migrations: { '0005_tickets': tickets },
  services: createTicketsServices,
  on: {
    /** A deleted account's tickets go, and the files attached to them with them. */
    async 'user.deleting'({ user }, { app }) {
      await app.services.tickets.removeAllOf(user.id);
    },
  },
});
