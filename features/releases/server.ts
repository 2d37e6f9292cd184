import { type Generated, type Kysely, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import type { Flag, Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';
import { defineServerFeature } from '../../server/feature';
import { HttpError, notFound } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { pageOf } from '../../server/repositories/paging';
import { type AppRelease, type appReleaseInput, appReleases } from './resource';
import type { App, Format } from './urls';

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

const now = () => new Date().toISOString();

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

async function mustFind(db: Db, id: number): Promise<Row> {
  const row = await db
    .selectFrom('app_releases')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('No such release in the catalogue');
  return row;
}

/** Another release of the app has this version: a field error, not the database's. */
async function checkVersion(db: Db, app: string, version: string, self?: number): Promise<void> {
  let query = db
    .selectFrom('app_releases')
    .select('id')
    .where('app', '=', app)
    .where('version', '=', version);
  if (self !== undefined) query = query.where('id', '!=', self);
  if (await query.executeTakeFirst())
    throw new HttpError(409, `${app} ${version} is already in the catalogue`, {
      version: `${app} ${version} is already in the catalogue`,
    });
}

/** One default per app: the new default clears the others. */
async function onlyDefault(db: Db, app: string, id: number): Promise<void> {
  await db
    .updateTable('app_releases')
    .set({ is_default: 0 })
    .where('app', '=', app)
    .where('id', '!=', id)
    .execute();
}

const SORT = appReleases.ops.list.sort;

const handlers = defineHandlers(appReleases, {
  list: (ctx) =>
    pageOf(ctx.app.db.selectFrom('app_releases').selectAll(), ctx.query, SORT).then((page) => ({
      data: page.data.map(record),
      total: page.total,
    })),
  async get(ctx) {
    return record(await mustFind(ctx.app.db, Number(ctx.params.id)));
  },
  async create(ctx) {
    const body = ctx.body as Input;
    const { db } = ctx.app;
    await checkVersion(db, body.app, body.version);
    const at = now();
    const inserted = await db
      .insertInto('app_releases')
      .values({
        app: body.app,
        version: body.version,
        url: body.url,
        sha256: body.sha256,
        size: body.size ?? null,
        format: body.format,
        is_default: body.is_default ? 1 : 0,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .catch(async (error: unknown) => {
        await checkVersion(db, body.app, body.version);
        throw error;
      });
    if (body.is_default) await onlyDefault(db, body.app, inserted.id);
    ctx.reply.code(201);
    return record(await mustFind(db, inserted.id));
  },
  async update(ctx) {
    const id = Number(ctx.params.id);
    const { db } = ctx.app;
    const row = await mustFind(db, id);
    const body = ctx.body as Partial<Input>;
    const app = body.app ?? row.app;
    const version = body.version ?? row.version;
    await checkVersion(db, app, version, id);
    await db
      .updateTable('app_releases')
      .set({
        app,
        version,
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.sha256 !== undefined ? { sha256: body.sha256 } : {}),
        ...(body.size !== undefined ? { size: body.size } : {}),
        ...(body.format !== undefined ? { format: body.format } : {}),
        ...(body.is_default !== undefined ? { is_default: body.is_default ? 1 : 0 } : {}),
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
    const after = await mustFind(db, id);
    if (after.is_default) await onlyDefault(db, after.app, id);
    return record(after);
  },
  async delete(ctx) {
    const row = await mustFind(ctx.app.db, Number(ctx.params.id));
    await ctx.app.db.deleteFrom('app_releases').where('id', '=', row.id).execute();
    return record(row);
  },
  actions: {},
});

export const server = defineServerFeature({
  migrations: { '0019_app_releases': migration },
  handlers: [handlers],
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
