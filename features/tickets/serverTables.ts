import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';

export interface TicketsTable {
  id: Generated<number>;
  user_id: number;
  server_id: number | null;
  subject: string;
  priority: 'low' | 'normal' | 'high' | 'urgent';
  status: 'open' | 'answered' | 'closed';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketMessagesTable {
  id: Generated<number>;
  ticket_id: number;
  author_id: number | null;
  from_staff: Flag;
  body: string;
  created_at: Timestamp;
}

export interface TicketAttachmentsTable {
  id: Generated<number>;
  message_id: number;
  ticket_id: number;
  file_name: string;
  stored_name: string;
  mime: string;
  size: number;
  created_at: Timestamp;
}

/**
 * The tables of support tickets (issue 4): merged into `Database` (server/db/schema.ts), and their
 * migrations, merged into server/db/migrate.ts in name order.
 */
export interface TicketsTables {
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  ticket_attachments: TicketAttachmentsTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends TicketsTables {}
}
