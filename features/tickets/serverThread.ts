import type { TicketMessage } from '../../resources/tickets';
import type { Db } from '../../server/db/database';
import type { IncomingFile, TicketFiles } from './serverAttachments';

// A ticket's thread: reading it, and writing a message with its files (for TicketRepository).

/** The ticket's messages, oldest first, each with its attachments (names and sizes). */
export async function threadOf(db: Db, ticketId: number): Promise<TicketMessage[]> {
  const messages = await db
    .selectFrom('ticket_messages')
    .leftJoin('users', 'users.id', 'ticket_messages.author_id')
    .select([
      'ticket_messages.id',
      'ticket_messages.from_staff',
      'ticket_messages.body',
      'ticket_messages.created_at',
      'users.user_name',
    ])
    .where('ticket_messages.ticket_id', '=', ticketId)
    .orderBy('ticket_messages.id', 'asc')
    .execute();
  const files = await db
    .selectFrom('ticket_attachments')
    .select(['id', 'message_id', 'file_name', 'mime', 'size'])
    .where('ticket_id', '=', ticketId)
    .orderBy('id', 'asc')
    .execute();
  return messages.map((m) => ({
    id: m.id,
    from_staff: Boolean(m.from_staff),
    author: m.from_staff
      ? `${m.user_name ?? 'Support'} (Support)`
      : (m.user_name ?? 'Deleted user'),
    body: m.body,
    created_at: m.created_at,
    attachments: files
      .filter((f) => f.message_id === m.id)
      .map((f) => ({ id: f.id, name: f.file_name, type: f.mime, size: Number(f.size) })),
  }));
}

/**
 * Stores the files, then runs `write` (the rows naming them); the stored files go again when it
 * fails, so no file lies on disk without a row.
 */
export async function withFiles<T>(
  disk: TicketFiles,
  files: readonly IncomingFile[],
  write: (stored: { file: IncomingFile; name: string }[]) => Promise<T>,
): Promise<T> {
  const stored: { file: IncomingFile; name: string }[] = [];
  try {
    for (const file of files) stored.push({ file, name: await disk.save(file.bytes) });
    return await write(stored);
  } catch (error) {
    await disk.remove(stored.map((s) => s.name));
    throw error;
  }
}

/** One message and the rows of its stored files, in the caller's transaction. */
export async function insertMessage(
  trx: Db,
  ticketId: number,
  message: { authorId: number; fromStaff: boolean; body: string },
  stored: readonly { file: IncomingFile; name: string }[],
  stamp: string,
): Promise<void> {
  const { id } = await trx
    .insertInto('ticket_messages')
    .values({
      ticket_id: ticketId,
      author_id: message.authorId,
      from_staff: message.fromStaff ? 1 : 0,
      body: message.body,
      created_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const { file, name } of stored) {
    await trx
      .insertInto('ticket_attachments')
      .values({
        message_id: id,
        ticket_id: ticketId,
        file_name: file.name,
        stored_name: name,
        mime: file.type,
        size: file.bytes.length,
        created_at: stamp,
      })
      .execute();
  }
}
