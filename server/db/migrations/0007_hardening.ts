import { type Kysely, sql } from 'kysely';
import { withId } from './helpers';

/**
 * Hardening (issue 8): transfer offers can be voided, keys on a server remember who added them,
 * and API keys become rows of their own (listed with their last use, revoked one by one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('server_transfers').addColumn('voided_at', 'varchar(32)').execute();
  await db.schema
    .createIndex('server_transfers_server')
    .on('server_transfers')
    .column('server_id')
    .execute();

  // The panel user who added the key; null for keys from before this column (the owner's).
  await db.schema.alterTable('pubkeys').addColumn('added_by', 'integer').execute();

  await withId(db, db.schema.createTable('api_keys'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('api_key', 'varchar(64)', (c) => c.notNull().unique())
    /** SHA-256 of the secret; the secret itself is shown once. */
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('last_used_ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
  // Existing pairs carry over, so clients that use them keep working.
  await sql`insert into api_keys (user_id, api_key, secret_hash, label, created_at)
    select id, api_key, api_secret_hash, '', updated_at from users
    where api_key is not null and api_secret_hash is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.alterTable('pubkeys').dropColumn('added_by').execute();
  await db.schema.dropIndex('server_transfers_server').execute();
  await db.schema.alterTable('server_transfers').dropColumn('voided_at').execute();
}
