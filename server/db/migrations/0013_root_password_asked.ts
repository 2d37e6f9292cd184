import type { Kysely } from 'kysely';
import { flagColumn } from './helpers';

/**
 * Connecting a server no longer sets root's password unasked: a server remembers whether its
 * owner asked for it. Servers connected before asked nothing (their root row, if any, stays).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('servers')
    .addColumn('root_password', 'integer', flagColumn(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('servers').dropColumn('root_password').execute();
}
