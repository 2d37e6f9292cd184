import type { Kysely } from 'kysely';

/**
 * Migration `0066_admin_users_indexes`: the admin's list of users pages newest first (its
 * default) or by name; these indexes give a page, and the ids of a page deep down, without
 * sorting the table (ties broken by id). The email order already walks the unique email index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('users_name').on('users').columns(['user_name', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_name').execute();
  await db.schema.dropIndex('users_created').execute();
}
