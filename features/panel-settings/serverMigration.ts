import type { Kysely } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/** 0065_panel_settings: the run-time settings (one row a key) and the panel's API credentials. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('panel_settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(320)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('api_credentials'))
    .addColumn('provider', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('public_fields', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('key_last4', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(320)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_credentials').execute();
  await db.schema.dropTable('panel_settings').execute();
}
