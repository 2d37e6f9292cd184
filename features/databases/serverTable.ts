/**
 * The databases' tables: one row per database and per database user (server-managed rows),
 * and which databases each user is granted; a request's view of each table.
 */
import type { Kysely } from 'kysely';
import type { HandlerContext } from '../../server/http/handlers';
import { ManagedStore } from '../../server/managed/store';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';

interface DatabaseColumns {
  name: string;
  collation: string;
}
interface DbUserColumns {
  name: string;
  /** MariaDB's own hash of a new password, until the server has it (then null). */
  password_hash: string | null;
}
export type DatabaseRow = ManagedRow & DatabaseColumns;
export type DbUserRow = ManagedRow & DbUserColumns;

declare module '../../server/db/schema' {
  interface Database {
    databases: ManagedColumns & DatabaseColumns;
    dbusers: ManagedColumns & DbUserColumns;
    /** Which databases (of the same server) a user may use: all privileges on each. */
    dbuser_grants: { dbuser_id: number; database_id: number };
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    databases: DatabaseRow;
    dbusers: DbUserRow;
  }
}

export const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'databases')
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('collation', 'varchar(64)', (c) => c.notNull())
      .addUniqueConstraint('databases_server_name', ['server_id', 'name'])
      .execute();
    await createManagedTable(db, 'dbusers')
      .addColumn('name', 'varchar(32)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(41)')
      .addUniqueConstraint('dbusers_server_name', ['server_id', 'name'])
      .execute();
    await db.schema
      .createTable('dbuser_grants')
      .addColumn('dbuser_id', 'integer', (c) =>
        c.notNull().references('dbusers.id').onDelete('cascade'),
      )
      .addColumn('database_id', 'integer', (c) =>
        c.notNull().references('databases.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('dbuser_grants_pk', ['dbuser_id', 'database_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dbuser_grants').execute();
    await db.schema.dropTable('dbusers').execute();
    await db.schema.dropTable('databases').execute();
  },
};

export const dbStore = (ctx: HandlerContext) =>
  new ManagedStore<DatabaseRow>(ctx.app.db, 'databases');
export const userStore = (ctx: HandlerContext) =>
  new ManagedStore<DbUserRow>(ctx.app.db, 'dbusers');
