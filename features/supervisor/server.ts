import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { readOp, runOp } from '../../server/agents/runOp';
import type { ServerRow } from '../../server/db/schema';
import { fieldError } from '../../server/http/errors';
import type { HandlerContext, QueryOf } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import {
  type ManagedHooksOf,
  defineManagedHandlers,
  managedHandlers,
} from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';
import { type svjobInput, svjobs } from './resource';

interface SvjobColumns {
  name: string;
  command: string;
  directory: string;
  user: string;
  numprocs: number;
  /** 0/1 */
  autostart: number;
  /** 0/1 */
  autorestart: number;
}
export type SvjobRow = ManagedRow & SvjobColumns;

declare module '../../server/db/schema' {
  interface Database {
    svjobs: ManagedColumns & SvjobColumns;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    svjobs: SvjobRow;
  }
}

const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'svjobs')
      .addColumn('name', 'varchar(40)', (c) => c.notNull())
      .addColumn('command', 'text', (c) => c.notNull())
      .addColumn('directory', 'varchar(255)', (c) => c.notNull())
      .addColumn('user', 'varchar(32)', (c) => c.notNull())
      .addColumn('numprocs', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('autostart', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('autorestart', 'integer', (c) => c.notNull().defaultTo(1))
      .addUniqueConstraint('svjobs_server_name', ['server_id', 'name'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('svjobs').execute();
  },
};

type Input = z.output<typeof svjobInput>;

const columns = ({ autostart, autorestart, ...rest }: Input) => ({
  ...rest,
  autostart: autostart ? 1 : 0,
  autorestart: autorestart ? 1 : 0,
});

const program = (row: SvjobRow) => ({
  name: row.name,
  command: row.command,
  directory: row.directory,
  user: row.user,
  numprocs: row.numprocs,
  autostart: Boolean(row.autostart),
  autorestart: Boolean(row.autorestart),
});

const kind = defineManagedKind<SvjobRow>({
  resource: 'svjobs',
  table: 'svjobs',
  key: 'name',
  toColumns: (input) => columns(input as Input),
  noun: (row) => `supervisor job ${row.name}`,
  async apply(op, row) {
    await op('supervisor.set', program(row));
  },
  async remove(op, row) {
    await op('supervisor.remove', { name: row.name });
  },
  async readBack(op, rows) {
    const held = new Map((await op('supervisor.list', {})).map((p) => [p.name, p]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const found = held.get(row.name);
      const want = program(row);
      if (!found) drift.set(row.id, 'missing');
      else if ((Object.keys(want) as (keyof typeof want)[]).some((key) => found[key] !== want[key]))
        drift.set(row.id, 'changed');
    }
    return drift;
  },
});

/** A job runs as root or as a system user the panel made on this server. */
async function checkUser(ctx: HandlerContext, user: string) {
  if (user === 'root') return;
  const known = await ctx.app.db
    .selectFrom('sysusers')
    .select('id')
    .where('server_id', '=', ctx.server.id)
    .where('user_name', '=', user)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!known) throw fieldError('user', `${user} is not a system user of this server`);
}

const record = (row: SvjobRow) => ({
  ...row,
  autostart: Boolean(row.autostart),
  autorestart: Boolean(row.autorestart),
});

const storeOf = (ctx: HandlerContext) => new ManagedStore<SvjobRow>(ctx.app.db, 'svjobs');

// No update op: `?rebuild=true` changes a job with a whole create body.
const hooks: ManagedHooksOf<typeof svjobs, Input, Input> = {
  async create(ctx, body) {
    await checkUser(ctx, body.user);
    if (await storeOf(ctx).find(ctx.server.id, 'name', body.name))
      throw fieldError('name', 'This server has a job of this name');
    // A Node.js app's program has the file a job of its name would have (features/nodejs).
    const nodeApp = await ctx.app.db
      .selectFrom('webapps')
      .select('id')
      .where('server_id', '=', ctx.server.id)
      .where('webapp_type', '=', 'nodejs')
      .where('name', '=', body.name)
      .executeTakeFirst();
    if (nodeApp) throw fieldError('name', 'A Node.js app of this server runs under this name');
    return columns(body);
  },
  async update(ctx, body) {
    await checkUser(ctx, body.user);
    return columns(body);
  },
  record,
  actions: {
    async procs(ctx) {
      return { data: await readOp(ctx, 'supervisor.status', {}) };
    },
    async rebuild(ctx) {
      return rebuildAll(ctx);
    },
    async handle(ctx) {
      const { name, action } = ctx.query;
      await named(ctx, name);
      const data = await runOp(
        ctx,
        `${action[0]!.toUpperCase()}${action.slice(1)} supervisor job ${name}`,
        'supervisor.control',
        {
          name,
          action,
        },
      );
      return { data };
    },
    async logs(ctx) {
      const { name, process } = ctx.query;
      await named(ctx, name);
      return readOp(ctx, 'supervisor.log', { name, process: process ?? 0 });
    },
  },
};
const bound = defineManagedHandlers(svjobs, kind, hooks);

/** The job of `?name=` on this server (the query names a child too: loaded through the server). */
async function named(ctx: HandlerContext, name: string): Promise<SvjobRow> {
  const row = await storeOf(ctx).find(ctx.server.id, 'name', name);
  if (!row) throw fieldError('name', `No job ${name} on this server`);
  return row;
}

/** `GET svjobs/rebuild`: every job written again, one after another. */
async function rebuildAll(ctx: HandlerContext) {
  const rows = (await storeOf(ctx).all(ctx.server.id)).filter((r) => r.status !== 'deleting');
  const counts = { rebuilt: 0, failed: 0, waiting: 0 };
  for (const row of rows) {
    const pending = await storeOf(ctx).change(row, {});
    const result = await converge(ctx.app, ctx.server as ServerRow, kind, pending, 'apply', {
      message: `Rebuild supervisor job ${row.name}`,
      actorId: ctx.caller?.actorId ?? null,
    });
    counts[
      result.state === 'active' ? 'rebuilt' : result.state === 'waiting' ? 'waiting' : 'failed'
    ] += 1;
  }
  return counts;
}

const generic = managedHandlers(svjobs, kind, hooks);
/** The declared create: `?rebuild=` and the job's whole body. */
type CreateCall = HandlerContext<QueryOf<typeof svjobs, 'create'>, Input, undefined>;

/**
 * The generic handlers; `POST ...?rebuild=true` writes the job of the body's name again from
 * the body (the spec's "rebuild one", which is also how a job is changed).
 */
export const server = defineServerFeature({
  migrations: { '0010_supervisor': migration },
  async usersOf(db, serverId, userName) {
    const jobs = await db
      .selectFrom('svjobs')
      .select('name')
      .where('server_id', '=', serverId)
      .where('user', '=', userName)
      .execute();
    return jobs.map((j) => `supervisor job ${j.name}`);
  },
  managed: [kind],
  handlers: [
    {
      ...bound,
      handlers: {
        ...bound.handlers,
        async create(ctx: CreateCall) {
          if (ctx.query.rebuild !== 'true') return generic.create(ctx);
          const row = await named(ctx, ctx.body.name);
          ctx.reply.code(200);
          return generic.update({ ...ctx, child: row });
        },
      },
    },
  ],
});
