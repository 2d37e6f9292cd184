import type { Kysely } from 'kysely';
import { flagColumn, withId } from './helpers';

/** Support tickets: tickets, their messages, and the files attached to messages. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('tickets'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('set null'))
    .addColumn('subject', 'varchar(200)', (c) => c.notNull())
    .addColumn('priority', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tickets_user')
    .on('tickets')
    .columns(['user_id', 'status'])
    .execute();
  await db.schema.createIndex('tickets_updated').on('tickets').column('updated_at').execute();

  await withId(db, db.schema.createTable('ticket_messages'))
    .addColumn('ticket_id', 'integer', (c) =>
      c.notNull().references('tickets.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_staff', 'integer', flagColumn(0))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_messages_ticket')
    .on('ticket_messages')
    .column('ticket_id')
    .execute();

  await withId(db, db.schema.createTable('ticket_attachments'))
    .addColumn('message_id', 'integer', (c) =>
      c.notNull().references('ticket_messages.id').onDelete('cascade'),
    )
    .addColumn('ticket_id', 'integer', (c) =>
      c.notNull().references('tickets.id').onDelete('cascade'),
    )
    /** The client's file name: shown and offered on download, never part of a path. */
    .addColumn('file_name', 'varchar(200)', (c) => c.notNull())
    /** Random name of the file under DATA_DIR/ticket-attachments. */
    .addColumn('stored_name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('mime', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_attachments_message')
    .on('ticket_attachments')
    .column('message_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ticket_attachments').execute();
  await db.schema.dropTable('ticket_messages').execute();
  await db.schema.dropTable('tickets').execute();
}
