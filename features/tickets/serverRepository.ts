import { type ExpressionBuilder, sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Ticket, TicketMessage } from '../../resources/tickets';
import { type Db, now } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { type Page, containsText, pageOf } from '../../server/repositories/paging';
import type { IncomingFile, TicketFiles } from './serverAttachments';
import { insertMessage, threadOf, withFiles } from './serverThread';
import type { TicketsTable } from './serverTables';

/** Tickets with their owner's address, server name and message count. */
function ticketRows(db: Db) {
  return db
    .selectFrom('tickets')
    .innerJoin('users', 'users.id', 'tickets.user_id')
    .leftJoin('servers', 'servers.id', 'tickets.server_id')
    .select((eb) => [
      'tickets.id',
      'tickets.user_id',
      'users.email',
      'tickets.subject',
      'tickets.priority',
      'tickets.status',
      'tickets.server_id',
      'servers.name as server_name',
      'tickets.created_at',
      'tickets.updated_at',
      eb
        .selectFrom('ticket_messages')
        .whereRef('ticket_messages.ticket_id', '=', 'tickets.id')
        .select(sql<number>`count(*)`.as('n'))
        .as('messages'),
    ]);
}

/** Who a list is for: one user's tickets, or every ticket (an admin's desk). */
export type TicketScope = { userId: number } | { all: true; email?: string };

export interface TicketFilters {
  status?: TicketsTable['status'];
}

type TicketRow = Omit<Ticket, 'priority' | 'status'> & {
  priority: TicketsTable['priority'];
  status: TicketsTable['status'];
};

export class TicketRepository {
  constructor(
    private readonly db: Db,
    readonly files: TicketFiles,
  ) {}

  private base() {
    return ticketRows(this.db);
  }

  private static shape(row: TicketRow & { messages: unknown }): Ticket {
    return { ...row, messages: Number(row.messages ?? 0) };
  }

  async list(
    scope: TicketScope,
    query: ListQuery,
    filters: TicketFilters,
    sortable: readonly string[],
  ): Promise<Page<Ticket>> {
    // A subquery, so that sorting and paging see plain, unambiguous column names.
    let q = this.db.selectFrom(this.base().as('t')).selectAll('t');
    if ('userId' in scope) q = q.where('t.user_id', '=', scope.userId);
    else if (scope.email) q = q.where(containsText('t.email', scope.email));
    if (filters.status) q = q.where('t.status', '=', filters.status);
    const page = await pageOf(q, query, sortable);
    return {
      total: page.total,
      data: page.data.map((r) => TicketRepository.shape(r as TicketRow & { messages: unknown })),
    };
  }

  async find(ticketId: number): Promise<Ticket | undefined> {
    const row = await this.base().where('tickets.id', '=', ticketId).executeTakeFirst();
    return row ? TicketRepository.shape(row as TicketRow & { messages: unknown }) : undefined;
  }

  /** The ticket's messages, oldest first, each with its attachments (names and sizes). */
  thread(ticketId: number): Promise<TicketMessage[]> {
    return threadOf(this.db, ticketId);
  }

  /** Stores the files, then writes ticket, message and attachment rows in one transaction. */
  async open(
    userId: number,
    ticket: { subject: string; priority: TicketsTable['priority']; server_id: number | null },
    message: { authorId: number; fromStaff: boolean; body: string },
    files: readonly IncomingFile[],
  ): Promise<number> {
    return withFiles(this.files, files, async (stored) =>
      this.db.transaction().execute(async (trx) => {
        const stamp = now();
        const { id } = await trx
          .insertInto('tickets')
          .values({
            user_id: userId,
            ...ticket,
            status: 'open',
            created_at: stamp,
            updated_at: stamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertMessage(trx, id, message, stored, stamp);
        return id;
      }),
    );
  }

  /** A reply, and the status it leads to (answered after an admin, open after the owner). */
  async reply(
    ticketId: number,
    message: { authorId: number; fromStaff: boolean; body: string },
    files: readonly IncomingFile[],
  ): Promise<void> {
    await withFiles(this.files, files, async (stored) =>
      this.db.transaction().execute(async (trx) => {
        const stamp = now();
        await insertMessage(trx, ticketId, message, stored, stamp);
        await trx
          .updateTable('tickets')
          .set({ status: message.fromStaff ? 'answered' : 'open', updated_at: stamp })
          .where('id', '=', ticketId)
          .execute();
      }),
    );
  }

  async setStatus(ticketId: number, status: TicketsTable['status']): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({ status, updated_at: now() })
      .where('id', '=', ticketId)
      .execute();
  }

  /** Where support mail goes: every enabled admin, but the one writing. */
  async adminEmails(exceptUserId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('email')
      .where('is_admin', '=', 1)
      .where('disabled', '=', 0)
      .where('id', '!=', exceptUserId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.email);
  }

  /**
   * Every ticket of a user, with its messages and the attachment files on disk (the account is
   * being deleted): the rows first, then the files, so no row names a file that is gone.
   */
  async removeAllOf(userId: number): Promise<void> {
    const stored = await this.db
      .selectFrom('ticket_attachments')
      .innerJoin('tickets', 'tickets.id', 'ticket_attachments.ticket_id')
      .select('ticket_attachments.stored_name')
      .where('tickets.user_id', '=', userId)
      .execute();
    await this.db.deleteFrom('tickets').where('user_id', '=', userId).execute();
    await this.files.remove(stored.map((s) => s.stored_name));
  }
}

/**
 * Whose tickets the path's `{uid}` reaches: the user's own, or every ticket when the user is an
 * admin (their own id: the support desk; an admin naming another user reaches that user's). A
 * condition of the query that reads the row, so loading one costs that one query.
 */
function reachableBy(uid: number) {
  return (eb: ExpressionBuilder<Database, 'tickets'>) =>
    eb.or([
      eb('tickets.user_id', '=', uid),
      eb.exists(
        eb
          .selectFrom('users as reacher')
          .select('reacher.id')
          .where('reacher.id', '=', uid)
          .where('reacher.is_admin', '=', 1),
      ),
    ]);
}

/**
 * The ticket of a path id as the `{uid}` account reaches it, else nothing (404, like a missing
 * one): the one ownership check of tickets, the request hook's loader (features/tickets/server.ts).
 */
export async function ticketOfAccount(
  db: Db,
  uid: number,
  ticketId: number | string,
): Promise<Ticket | undefined> {
  const row = await ticketRows(db)
    .where('tickets.id', '=', Number(ticketId))
    .where(reachableBy(uid))
    .executeTakeFirst();
  return row ? { ...(row as TicketRow), messages: Number(row.messages ?? 0) } : undefined;
}

/** An attachment, if the `{uid}` account reaches its ticket (as ticketOfAccount); else nothing. */
export function attachmentOfAccount(db: Db, uid: number, attachmentId: number | string) {
  return db
    .selectFrom('ticket_attachments')
    .innerJoin('tickets', 'tickets.id', 'ticket_attachments.ticket_id')
    .select([
      'ticket_attachments.id',
      'ticket_attachments.file_name',
      'ticket_attachments.stored_name',
      'ticket_attachments.mime',
      'ticket_attachments.size',
      'ticket_attachments.ticket_id',
    ])
    .where('ticket_attachments.id', '=', Number(attachmentId))
    .where(reachableBy(uid))
    .executeTakeFirst();
}
