import type { Kysely } from 'kysely';

/**
 * Migration `0062_admin_servers_indexes`: the admin's list of every server pages newest first
 * or by name; these indexes give a page without sorting the table (ties broken by id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('servers_created')
    .on('servers')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema.createIndex('servers_name').on('servers').columns(['name', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('servers_name').execute();
  await db.schema.dropIndex('servers_created').execute();
}
