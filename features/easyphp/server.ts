import { type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import type { Flag, Timestamp } from '../../server/db/columns';
import type { ServerRow } from '../../server/db/schema';
import { withId } from '../../server/db/migrations/helpers';
import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { adminCatalogue } from '../../server/http/adminCatalogue';
import { fieldError, notFound } from '../../server/http/errors';
import { defineHandlers, loadedChild } from '../../server/http/handlers';
import { DEFAULT_EXTENSIONS } from './catalogue';
import {
  type ExtensionState,
  type PhpExtension,
  easyphp,
  packageFor,
  type phpExtensionInput,
  phpExtensions,
} from './resource';

interface PhpExtensionsTable {
  id: Generated<number>;
  name: string;
  label: string;
  description: string;
  package: string | null;
  /** Comma-separated versions (`8.1,8.2`); empty: every version. */
  php_versions: string;
  is_available: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The PHP versions a server had when the panel last read them: what `{version}` may name. */
interface EasyphpVersionsTable {
  id: Generated<number>;
  server_id: number;
  version: string;
  running: Flag;
  source: string;
  read_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    php_extensions: PhpExtensionsTable;
    easyphp_versions: EasyphpVersionsTable;
  }
}

/** `{version}` of a server, as last read from it: always there (`active`) while it is listed. */
export type PhpVersionRow = Selectable<EasyphpVersionsTable> & { status: 'active' };

declare module '../../server/http/children' {
  interface FeatureChildRows {
    easyphp: PhpVersionRow;
  }
}

const now = () => new Date().toISOString();

const migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('php_extensions'))
      .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('label', 'varchar(64)', (c) => c.notNull())
      .addColumn('description', 'varchar(300)', (c) => c.notNull().defaultTo(''))
      .addColumn('package', 'varchar(64)')
      .addColumn('php_versions', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('is_available', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    const at = now();
    // A migration's db is untyped by design (the schema of its time): typed for its own table.
    await (db as unknown as Kysely<{ php_extensions: PhpExtensionsTable }>)
      .insertInto('php_extensions')
      .values(
        DEFAULT_EXTENSIONS.map((e) => ({
          ...e,
          php_versions: '',
          is_available: 1,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();

    await withId(db, db.schema.createTable('easyphp_versions'))
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('version', 'varchar(8)', (c) => c.notNull())
      .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source', 'varchar(16)', (c) => c.notNull())
      .addColumn('read_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('easyphp_versions_server_version', ['server_id', 'version'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('easyphp_versions').execute();
    await db.schema.dropTable('php_extensions').execute();
  },
};

type Row = Selectable<PhpExtensionsTable>;
type Input = z.output<typeof phpExtensionInput>;

const versionsOf = (text: string) => (text ? text.split(',') : []);

const record = (row: Row): PhpExtension => ({
  ...row,
  php_versions: versionsOf(row.php_versions),
  is_available: Boolean(row.is_available),
});

const columns = (input: Partial<Input>) => ({
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.label !== undefined ? { label: input.label } : {}),
  ...(input.description !== undefined ? { description: input.description } : {}),
  ...(input.package !== undefined ? { package: input.package || null } : {}),
  ...(input.php_versions !== undefined
    ? { php_versions: [...new Set(input.php_versions)].sort().join(',') }
    : {}),
  ...(input.is_available !== undefined ? { is_available: input.is_available ? 1 : 0 } : {}),
});

const catalogue = adminCatalogue({
  table: 'php_extensions',
  missing: 'No such PHP extension in the catalogue',
  sort: phpExtensions.ops.list.sort,
  record,
  columns,
  defaults: { description: '', package: null, php_versions: '', is_available: 1 },
  unique: {
    columns: ['name'],
    field: 'name',
    message: (row) => `${row.name} is already in the catalogue`,
  },
});
const { mustFind } = catalogue;

const catalogueHandlers = defineHandlers(phpExtensions, {
  ...catalogue.handlers,
  actions: {
    async availability(ctx) {
      const id = Number(ctx.params.id);
      await mustFind(ctx.app.db, id);
      await ctx.app.db
        .updateTable('php_extensions')
        .set({ is_available: ctx.body.is_available ? 1 : 0, updated_at: now() })
        .where('id', '=', id)
        .execute();
      return record(await mustFind(ctx.app.db, id));
    },
  },
});

/** `{version}`: one the server had when its versions were last read (`versions`). */
async function loadVersion(db: Db, server: ServerRow, value: number | string) {
  const row = await db
    .selectFrom('easyphp_versions')
    .selectAll()
    .where('server_id', '=', server.id)
    .where('version', '=', String(value))
    .executeTakeFirst();
  // The same answer for a version the server lacks and one only another server has.
  if (!row)
    throw notFound(
      `PHP ${String(value)} is not among the PHP versions read from this server: GET easyphp/servers/{sid}/users/{uid} reads them again`,
    );
  return { ...row, status: 'active' as const };
}

/** The catalogue's extensions a version offers users: available, and for that version. */
async function offered(db: Db, version: string): Promise<Row[]> {
  const rows = await db
    .selectFrom('php_extensions')
    .selectAll()
    .where('is_available', '=', 1)
    .orderBy(sql`lower(label)`)
    .execute();
  return rows.filter((r) => !r.php_versions || versionsOf(r.php_versions).includes(version));
}

const stateOf = (
  row: Row,
  version: string,
  server: { available: string[]; enabled: string[] },
): ExtensionState => ({
  id: row.id,
  name: row.name,
  label: row.label,
  description: row.description,
  package: row.package ? packageFor(row.package, version) : null,
  available: server.available.includes(row.name),
  enabled: server.enabled.includes(row.name),
});

const serverHandlers = defineHandlers(easyphp, {
  actions: {
    /** Read from the server, and kept: the versions `{version}` may name. */
    async versions(ctx) {
      const data = await readOp(ctx, 'php.runtimes', {});
      const { db } = ctx.app;
      const at = now();
      const versions = data.map((r) => r.version);
      await db
        .deleteFrom('easyphp_versions')
        .where('server_id', '=', ctx.server.id)
        .$if(versions.length > 0, (q) => q.where('version', 'not in', versions))
        .execute();
      for (const runtime of data) {
        const values = { running: runtime.running ? 1 : 0, source: runtime.source, read_at: at };
        await db
          .insertInto('easyphp_versions')
          .values({ server_id: ctx.server.id, version: runtime.version, ...values })
          .onConflict((oc) => oc.columns(['server_id', 'version']).doUpdateSet(values))
          .execute();
      }
      return { data };
    },

    async extensions(ctx) {
      const { version } = loadedChild(ctx.child);
      const state = await readOp(ctx, 'easyphp.state', { version });
      const rows = await offered(ctx.app.db, version);
      return { version, data: rows.map((row) => stateOf(row, version, state)) };
    },

    async toggle(ctx) {
      const { version } = loadedChild(ctx.child);
      const { enable, disable } = ctx.query;
      if ((enable === undefined) === (disable === undefined))
        throw fieldError(
          'enable',
          'Name one extension: ?enable={extensionId} or ?disable={extensionId}',
        );
      const on = enable !== undefined;
      const param = on ? 'enable' : 'disable';
      const row = await catalogue.find(ctx.app.db, (enable ?? disable)!);
      if (!row || !row.is_available)
        throw fieldError(param, 'No such PHP extension is offered (see the catalogue)');
      if (row.php_versions && !versionsOf(row.php_versions).includes(version))
        throw fieldError(param, `${row.label} is not offered for PHP ${version}`);
      const state = await readOp(ctx, 'easyphp.state', { version });
      if (!state.available.includes(row.name)) {
        const pkg = row.package ? packageFor(row.package, version) : null;
        throw fieldError(
          param,
          `${row.label} (${row.name}) is not installed for PHP ${version} on this server` +
            (pkg ? `: the ${pkg} package provides it` : ''),
        );
      }
      // Already as asked: nothing to switch, reload or log.
      if (state.enabled.includes(row.name) === on) return stateOf(row, version, state);
      const done = await runOp(
        ctx,
        `${on ? 'Enable' : 'Disable'} the PHP ${version} extension ${row.name} (PHP-FPM)`,
        'easyphp.set',
        { version, name: row.name, enabled: on },
      );
      const enabled = new Set(state.enabled);
      if (done.enabled) enabled.add(row.name);
      else enabled.delete(row.name);
      return stateOf(row, version, { available: state.available, enabled: [...enabled] });
    },
  },
});

export const server = defineServerFeature({
  migrations: { '0017_easyphp': migration },
  children: { easyphp: loadVersion },
  handlers: [catalogueHandlers, serverHandlers],
});
