import { type Generated, type Kysely, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import type { Flag, Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';
import { defineServerFeature } from '../../server/feature';
import { adminCatalogue } from '../../server/http/adminCatalogue';
import { defineHandlers } from '../../server/http/handlers';
import { HttpError } from '../../server/http/errors';
import { type AppRelease, type appReleaseInput, appReleases, appSources } from './resource';
import { checkOfficial } from './serverCheck';
import { mirrorHandlers, mirrorMigration, mirrorOf } from './serverMirror';
import { type AppSource, keptSource, sourceOf, sourcesMigration } from './serverSources';
import {
  APPS,
  APP_LABELS,
  type App,
  type Format,
  type OfficialApp,
  type Source,
  downloadUrl,
} from './urls';

interface AppReleasesTable {
  id: Generated<number>;
  app: string;
  version: string;
  url: string;
  sha256: string;
  size: number | null;
  format: string;
  is_default: Flag;
  /** pinned, official or debian (serverSources.ts). */
  source: Generated<string>;
  checked_at: Generated<Timestamp | null>;
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
  source: row.source as Source,
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

const found = async (db: Db, id: number) => record(await catalogue.mustFind(db, id));

const handlers = defineHandlers(appReleases, {
  ...catalogue.handlers,
  async update(ctx) {
    keptSource(await found(ctx.app.db, Number(ctx.params.id)), 'edit');
    return catalogue.handlers.update(ctx);
  },
  async delete(ctx) {
    keptSource(await found(ctx.app.db, Number(ctx.params.id)), 'delete');
    return catalogue.handlers.delete(ctx);
  },
  actions: {
    async check(ctx) {
      const { db } = ctx.app;
      const release = await found(db, Number(ctx.params.id));
      if (release.source !== 'official')
        throw new HttpError(409, 'Only an official source is checked for new releases');
      const pin = await checkOfficial(release.app as OfficialApp, ctx.app.config.releaseSourcesUrl);
      const other = await db
        .selectFrom('app_releases')
        .select('id')
        .where('app', '=', release.app)
        .where('version', '=', pin.version)
        .where('id', '!=', release.id)
        .executeTakeFirst();
      if (other)
        throw new HttpError(
          409,
          `${APP_LABELS[release.app]} ${pin.version} is in the catalogue already, pinned by hand: the official source keeps ${release.version || 'no version'}`,
        );
      const at = new Date().toISOString();
      await db
        .updateTable('app_releases')
        .set({ ...pin, checked_at: at, updated_at: at })
        .where('id', '=', release.id)
        .execute();
      return found(db, release.id);
    },
    async makeDefault(ctx) {
      const { db } = ctx.app;
      const id = Number(ctx.params.id);
      await catalogue.mustFind(db, id);
      await db
        .updateTable('app_releases')
        .set({ is_default: 1, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      await onlyDefault(db, await catalogue.mustFind(db, id));
      return found(db, id);
    },
  },
});

const sourceHandlers = defineHandlers(appSources, {
  actions: {
    async list(ctx) {
      const data = await Promise.all(
        APPS.map(async (app) => (await appSource(ctx.app.db, app)).status),
      );
      return { data };
    },
  },
});

export const server = defineServerFeature({
  migrations: {
    '0019_app_releases': migration,
    '0023_release_mirror': mirrorMigration,
    '0030_release_sources': sourcesMigration,
  },
  handlers: [handlers, mirrorHandlers, sourceHandlers],
});

/** The app's entries, its default first, then the newest. */
async function entriesOf(db: Db, app: App): Promise<AppRelease[]> {
  const rows = await db
    .selectFrom('app_releases')
    .selectAll()
    .where('app', '=', app)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(record);
}

/** What an install of `app` uses now, and what its users are told of it (sourceOf). */
async function appSource(db: Db, app: App): Promise<AppSource> {
  return sourceOf(app, await entriesOf(db, app));
}

/**
 * The release an installer uses: the app's default when it is usable (Debian's package, or a
 * release with its address and SHA-256), else its newest usable entry; else a 409 saying why,
 * in the words its install page showed (`GET app-sources`), and the installer makes nothing.
 */
export async function releaseToInstall(db: Db, app: App): Promise<AppRelease> {
  const { release, status } = await appSource(db, app);
  if (release) return release;
  throw new HttpError(409, status.reason ?? `${APP_LABELS[app]} installs without a release`);
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
