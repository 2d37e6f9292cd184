import type { Kysely } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/** Migration `0059_emergency_runs`: the 911 tool's runs (features/emergency-scripts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('emergency_runs'))
    .addColumn('script', 'varchar(40)', (c) => c.notNull())
    .addColumn('params', 'varchar(500)', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('admin_email', 'varchar(320)', (c) => c.notNull())
    // The code's row id: one run per code, enforced by the database (two panels, two requests).
    .addColumn('otp_code_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('servers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('emergency_runs_admin')
    .on('emergency_runs')
    .columns(['admin_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('emergency_runs').execute();
}
