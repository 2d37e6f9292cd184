import { type Generated, type Kysely, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import type { Flag, Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';
import { defineServerFeature } from '../../server/feature';
import { adminCatalogue } from '../../server/http/adminCatalogue';
import { defineHandlers } from '../../server/http/handlers';
import { type AppRelease, type appReleaseInput, appReleases } from './resource';
import { mirrorHandlers, mirrorMigration, mirrorOf } from './serverMirror';
import { type App, type Format, downloadUrl } from './urls';

interface AppReleasesTable {
  id: Generated<number>;
  app: string;
  version: string;
  url: string;
  sha256: string;
  size: number | null;
  format: string;
  is_default: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    app_releases: AppReleasesTable;
  }
}

const migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('app_releases'))
      .addColumn('app', 'varchar(16)', (c) => c.notNull())
      .addColumn('version', 'varchar(32)', (c) => c.notNull())
      .addColumn('url', 'varchar(500)', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('size', 'bigint')
      .addColumn('format', 'varchar(8)', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('app_releases_app_version', ['app', 'version'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('app_releases').execute();
  },
};

type Row = Selectable<AppReleasesTable>;
type Input = z.output<typeof appReleaseInput>;

const record = (row: Row): AppRelease => ({
  ...row,
  app: row.app as App,
  format: row.format as Format,
  size: row.size === null ? null : Number(row.size),
  is_default: Boolean(row.is_default),
});

/** One default per app: the new default clears the others. */
async function onlyDefault(db: Db, row: Row): Promise<void> {
  if (!row.is_default) return;
  await db
    .updateTable('app_releases')
    .set({ is_default: 0 })
    .where('app', '=', row.app)
    .where('id', '!=', row.id)
    .execute();
}

const catalogue = adminCatalogue({
  table: 'app_releases',
  missing: 'No such release in the catalogue',
  sort: appReleases.ops.list.sort,
  record,
  // The input is parsed (no unknown keys): what it gives is written as is, but the flag.
  columns: ({ is_default, ...rest }: Partial<Input>) => ({
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    ...(is_default !== undefined ? { is_default: is_default ? 1 : 0 } : {}),
  }),
  defaults: { size: null },
  unique: {
    columns: ['app', 'version'],
    field: 'version',
    message: (row) => `${row.app} ${row.version} is already in the catalogue`,
  },
  written: onlyDefault,
});

const handlers = defineHandlers(appReleases, { ...catalogue.handlers, actions: {} });

export const server = defineServerFeature({
  migrations: { '0019_app_releases': migration, '0023_release_mirror': mirrorMigration },
  handlers: [handlers, mirrorHandlers],
});

/**
 * The release an installer fetches: the app's default, else its newest entry; null when the
 * catalogue has none (the installer then says so and makes nothing).
 */
export async function releaseFor(db: Db, app: App): Promise<AppRelease | null> {
  const row = await db
    .selectFrom('app_releases')
    .selectAll()
    .where('app', '=', app)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? record(row) : null;
}

/**
 * Where an installer downloads a release: from the mirror when one is set, else the official
 * URL. Only the address changes: the agent still refuses an archive whose SHA-256 is not the
 * release's pinned one, so a mirror cannot change what is installed.
 */
export async function fetchUrlOf(
  db: Db,
  release: Pick<AppRelease, 'app' | 'url'>,
): Promise<string> {
  return downloadUrl(release, await mirrorOf(db));
}
