import type { Kysely } from 'kysely';

/** Activity lines say who did it: the user, an admin acting as the user, an API key, system. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('account_activity').addColumn('who', 'varchar(300)').execute();
  await db.schema.alterTable('server_activity').addColumn('who', 'varchar(300)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('server_activity').dropColumn('who').execute();
  await db.schema.alterTable('account_activity').dropColumn('who').execute();
}
