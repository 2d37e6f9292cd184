/**
 * The web apps' tables: one row per app (a server-managed row), and the domains each app
 * holds, so that a domain belongs to one app of a server.
 */
import type { Kysely } from 'kysely';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';

export interface WebappColumns {
  name: string;
  webapp_type: string;
  stack_type: 'nginx' | 'apache/nginx';
  /** Null for a static site. */
  php_version: string | null;
  /** JSON array, the primary first. */
  domains: string;
  web_root: string;
  /** JSON object (names.ts phpSettings). */
  php_settings: string;
  /** The system user it runs as (a child app: its parent's). */
  sys_user: string;
  parent_id: number | null;
  /** JSON (names.ts cacheSettings) while the app's web cache is on, else null. */
  cache: string | null;
  /** JSON (limits.ts appLimits) of the app's own limits, or null for the defaults. */
  limits: string | null;
}
export type WebappRow = ManagedRow & WebappColumns;

/** Each domain of a server belongs to one app: the unique key settles two requests racing. */
interface WebappDomainsTable {
  server_id: number;
  webapp_id: number;
  name: string;
}

declare module '../../server/db/schema' {
  interface Database {
    webapps: ManagedColumns & WebappColumns;
    webapp_domains: WebappDomainsTable;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    webstacks: WebappRow;
  }
}

/** The web cache's settings ride with the app: its vhost carries them. */
export const cacheMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webapps').addColumn('cache', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('webapps').dropColumn('cache').execute();
  },
};

/** Per-app limits of its jobs (issue 22, finding 1): null keeps the defaults. */
export const limitsMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webapps').addColumn('limits', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('webapps').dropColumn('limits').execute();
  },
};

export const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'webapps')
      .addColumn('name', 'varchar(40)', (c) => c.notNull())
      .addColumn('webapp_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('stack_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('php_version', 'varchar(8)')
      .addColumn('domains', 'text', (c) => c.notNull())
      .addColumn('web_root', 'varchar(100)', (c) => c.notNull())
      .addColumn('php_settings', 'text', (c) => c.notNull())
      .addColumn('sys_user', 'varchar(32)', (c) => c.notNull())
      .addColumn('parent_id', 'integer')
      .addUniqueConstraint('webapps_server_name', ['server_id', 'name'])
      .execute();
    await db.schema
      .createTable('webapp_domains')
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(253)', (c) => c.notNull())
      .addPrimaryKeyConstraint('webapp_domains_pk', ['server_id', 'name'])
      .execute();
    await db.schema
      .createIndex('webapp_domains_app')
      .on('webapp_domains')
      .column('webapp_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webapp_domains').execute();
    await db.schema.dropTable('webapps').execute();
  },
};
