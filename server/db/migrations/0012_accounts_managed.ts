import { type Kysely, sql } from 'kysely';

/**
 * System users and SSH keys become server-managed rows (server/managed): the field a server's
 * refusal concerns, a key's last change, and a user's password hash, kept only until the
 * server has it (so a user written while the server was offline can still be made).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sysusers').addColumn('error_field', 'varchar(64)').execute();
  await db.schema.alterTable('sysusers').addColumn('password_hash', 'varchar(200)').execute();
  await db.schema.alterTable('pubkeys').addColumn('error_field', 'varchar(64)').execute();
  await db.schema
    .alterTable('pubkeys')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update pubkeys set updated_at = created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pubkeys').dropColumn('updated_at').execute();
  await db.schema.alterTable('pubkeys').dropColumn('error_field').execute();
  await db.schema.alterTable('sysusers').dropColumn('password_hash').execute();
  await db.schema.alterTable('sysusers').dropColumn('error_field').execute();
}
