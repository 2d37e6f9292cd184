import type { ColumnDefinitionBuilder, CreateTableBuilder, Generated, Kysely } from 'kysely';
import type { Timestamp } from '../db/columns';
import { withId } from '../db/migrations/helpers';

/**
 * Where a server-managed row stands: `pending` is written and not yet confirmed by the server
 * (created, changed, or waiting for it to come back online), `active` is on the server as
 * written, `failed` carries the server's refusal, `deleting` waits for the server to take it off.
 */
export type ManagedStatus = 'pending' | 'active' | 'failed' | 'deleting';

/** The columns every server-managed table has, besides its own. */
export interface ManagedColumns {
  id: Generated<number>;
  server_id: number;
  status: ManagedStatus;
  /** The server's message when it refused the row. */
  error: string | null;
  /** The field of the row the refusal concerns (the form shows the message there). */
  error_field: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The columns as read back. */
export interface ManagedRow {
  id: number;
  server_id: number;
  status: ManagedStatus;
  error: string | null;
  error_field: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * Starts the table of a server-managed resource in a migration: id, the server (its rows go
 * with it), status and error, times. The feature adds its own columns, then `.execute()`.
 */
export function createManagedTable(db: Kysely<unknown>, name: string) {
  const table: CreateTableBuilder<string, 'id'> = withId(db, db.schema.createTable(name));
  return table
    .addColumn('server_id', 'integer', (c: ColumnDefinitionBuilder) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('error_field', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
}
