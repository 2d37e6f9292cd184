import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { httpErrorOf, readOp } from '../../server/agents/runOp';
import type { Db } from '../../server/db/database';
import { HttpError, fieldError, notFound } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { cachedServerRead } from '../../server/http/serverReadCache';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { type ManagedHooks, defineManagedHandlers } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';
import {
  type databaseInput,
  databaseOverview,
  databases,
  type dbUserInput,
  dbusers,
} from './resource';

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

const migration = {
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

/** MariaDB's mysql_native_password hash: the password itself never leaves the panel. */
export const nativeHash = (password: string) => {
  const once = createHash('sha1').update(password, 'utf8').digest();
  return `*${createHash('sha1').update(once).digest('hex').toUpperCase()}`;
};

/** The databases a user may use, by name (those not on their way out). */
async function grantedNames(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('dbuser_grants')
    .innerJoin('databases', 'databases.id', 'dbuser_grants.database_id')
    .select('databases.name')
    .where('dbuser_grants.dbuser_id', '=', userId)
    .where('databases.status', '!=', 'deleting')
    .orderBy('databases.name')
    .execute();
  return rows.map((r) => r.name);
}

export const databaseKind = defineManagedKind<DatabaseRow>({
  resource: 'databases',
  table: 'databases',
  noun: (row) => `database ${row.name}`,
  async apply(op, row) {
    await op('mariadb.db.set', { name: row.name, collation: row.collation });
  },
  async remove(op, row) {
    await op('mariadb.db.drop', { name: row.name });
  },
  async readBack(op, rows) {
    const held = new Map((await op('mariadb.list', {})).databases.map((d) => [d.name, d]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const found = held.get(row.name);
      if (!found) drift.set(row.id, 'missing');
      else if (found.collation !== row.collation) drift.set(row.id, 'changed');
    }
    return drift;
  },
});

export const dbUserKind = defineManagedKind<DbUserRow>({
  resource: 'dbusers',
  table: 'dbusers',
  transient: ['password_hash'],
  toColumns: (input) => ({
    name: input.name,
    password_hash: nativeHash(String(input.password)),
  }),
  noun: (row) => `database user ${row.name}`,
  async apply(op, row, { db }) {
    await op('mariadb.user.set', {
      name: row.name,
      password_hash: row.password_hash,
      databases: await grantedNames(db, row.id),
    });
  },
  async remove(op, row) {
    await op('mariadb.user.drop', { name: row.name });
  },
  async readBack(op, rows, { db }) {
    const held = new Map((await op('mariadb.list', {})).users.map((u) => [u.name, u]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const found = held.get(row.name);
      const want = await grantedNames(db, row.id);
      if (!found) drift.set(row.id, 'missing');
      else if ([...found.databases].sort().join() !== want.join()) drift.set(row.id, 'changed');
    }
    return drift;
  },
});

type DatabaseBody = z.output<typeof databaseInput>;
type DbUserBody = z.output<typeof dbUserInput>;

const dbStore = (ctx: HandlerContext) => new ManagedStore<DatabaseRow>(ctx.app.db, 'databases');
const userStore = (ctx: HandlerContext) => new ManagedStore<DbUserRow>(ctx.app.db, 'dbusers');

/** A database record with the users granted on it, a page at a time (one query). */
async function databaseRecords(db: Db, rows: DatabaseRow[]) {
  const ids = rows.map((r) => r.id);
  const grants = ids.length
    ? await db
        .selectFrom('dbuser_grants')
        .innerJoin('dbusers', 'dbusers.id', 'dbuser_grants.dbuser_id')
        .select(['dbuser_grants.database_id', 'dbusers.id', 'dbusers.name'])
        .where('dbuser_grants.database_id', 'in', ids)
        .orderBy('dbusers.name')
        .execute()
    : [];
  return rows.map((row) => ({
    ...row,
    users: grants.filter((g) => g.database_id === row.id).map(({ id, name }) => ({ id, name })),
  }));
}

async function userRecords(db: Db, rows: DbUserRow[]) {
  const ids = rows.map((r) => r.id);
  const grants = ids.length
    ? await db
        .selectFrom('dbuser_grants')
        .select(['dbuser_id', 'database_id'])
        .where('dbuser_id', 'in', ids)
        .orderBy('database_id')
        .execute()
    : [];
  // Never the hash: the record is what the schema says.
  return rows.map(({ password_hash: _hash, ...row }) => ({
    ...row,
    databases: grants.filter((g) => g.dbuser_id === row.id).map((g) => g.database_id),
  }));
}

/** The body's databases, each loaded through this server: a foreign id is refused by name. */
async function ownDatabases(ctx: HandlerContext, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    const row = await dbStore(ctx).find(ctx.server.id, 'id', id);
    // Another tenant's database reads as absent (404), as a foreign child in a path does.
    if (!row || row.status === 'deleting') throw notFound(`No database #${id} on this server`);
  }
  return unique;
}

async function setGrants(db: Db, userId: number, databaseIds: number[]) {
  await db.deleteFrom('dbuser_grants').where('dbuser_id', '=', userId).execute();
  if (databaseIds.length)
    await db
      .insertInto('dbuser_grants')
      .values(databaseIds.map((database_id) => ({ dbuser_id: userId, database_id })))
      .execute();
}

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/** The user written again on its server after its grants changed (queued while offline). */
async function reapplyUser(ctx: HandlerContext, row: DbUserRow) {
  const pending = await userStore(ctx).change(row, {});
  return converge(ctx.app, ctx.server, dbUserKind, pending, 'apply', {
    message: `Change the databases of ${row.name}`,
    actorId: actorOf(ctx),
  });
}

/** What databases add to the generic handlers (app databases use them too). */
export const databaseHooks: ManagedHooks<DatabaseRow, DatabaseBody, Partial<DatabaseBody>> = {
  async create(ctx, body) {
    if (await dbStore(ctx).find(ctx.server.id, 'name', body.name))
      throw fieldError('name', 'This server has a database of this name');
    return body;
  },
  async update(ctx, body, row) {
    const name = body.name ?? row.name;
    const collation = body.collation ?? row.collation;
    if (name !== row.name) {
      if (await dbStore(ctx).find(ctx.server.id, 'name', name))
        throw fieldError('name', 'This server has a database of this name');
      // A rename moves the tables on the server first (MariaDB has no RENAME DATABASE).
      if (row.status === 'active')
        await readOp(ctx, 'mariadb.db.rename', { from: row.name, to: name, collation });
    }
    return { name, collation };
  },
  record: (row) => ({ ...row, users: [] }),
  records: (ctx, rows) => databaseRecords(ctx.app.db, rows),
  actions: {
    /** `PATCH databases/{dbId}?userdel=`: the user loses its grant on this database. */
    async userdel(ctx) {
      const database = ctx.child as DatabaseRow;
      const id = (ctx.query as { userdel: number }).userdel;
      const user = await userStore(ctx).find(ctx.server.id, 'id', id);
      if (!user) throw fieldError('userdel', `No database user #${id} on this server`);
      await ctx.app.db
        .deleteFrom('dbuser_grants')
        .where('dbuser_id', '=', user.id)
        .where('database_id', '=', database.id)
        .execute();
      const result = await reapplyUser(ctx, user);
      if (result.state === 'failed') throw result.error;
      if (result.state === 'waiting') ctx.reply.code(202);
      return (await databaseRecords(ctx.app.db, [database]))[0];
    },
  },
};
const databaseHandlers = defineManagedHandlers(databases, databaseKind, databaseHooks);

/** What database users add to the generic handlers (app database users use them too). */
export const dbUserHooks: ManagedHooks<DbUserRow, DbUserBody, Partial<DbUserBody>> = {
  async create(ctx, body) {
    if (await userStore(ctx).find(ctx.server.id, 'name', body.name))
      throw fieldError('name', 'This server has a database user of this name');
    await ownDatabases(ctx, body.databases);
    return { name: body.name, password_hash: nativeHash(body.password) };
  },
  async inserted(ctx, row, body) {
    await setGrants(ctx.app.db, row.id, [...new Set(body.databases)]);
  },
  async update(ctx, body, row) {
    if (body.name !== undefined && body.name !== row.name)
      throw fieldError('name', 'A database user keeps its name: create another one');
    const ids = await ownDatabases(ctx, body.databases ?? []);
    await setGrants(ctx.app.db, row.id, ids);
    return body.password ? { password_hash: nativeHash(body.password) } : {};
  },
  record: ({ password_hash: _hash, ...row }) => ({ ...row, databases: [] }),
  records: (ctx, rows) => userRecords(ctx.app.db, rows),
};
const dbUserHandlers = defineManagedHandlers(dbusers, dbUserKind, dbUserHooks);

/**
 * Drops an app's databases and database users from its server (`DELETE webstacks/{appId}?
 * databases=true`): the users first, so no grant outlives its database. Asked for, never a
 * side effect of deleting an app.
 */
export async function removeAppDatabases(
  ctx: HandlerContext,
  app: { id: number; name: string },
): Promise<void> {
  const users = await userStore(ctx).all(ctx.server.id, { webapp_id: app.id });
  const dbs = await dbStore(ctx).all(ctx.server.id, { webapp_id: app.id });
  for (const [kind, store, rows, noun] of [
    [dbUserKind, userStore(ctx), users, 'database user'],
    [databaseKind, dbStore(ctx), dbs, 'database'],
  ] as const) {
    for (const row of rows) {
      const marked = await (store as ManagedStore<ManagedRow>).change(row, {}, 'deleting');
      const result = await converge(ctx.app, ctx.server, kind, marked, 'remove', {
        message: `Delete ${noun} ${row.name} (of web app ${app.name})`,
        actorId: actorOf(ctx),
      });
      if (result.state === 'failed') throw result.error;
    }
  }
}

export const server = defineServerFeature({
  migrations: { '0011_databases': migration },
  managed: [databaseKind, dbUserKind],
  handlers: [
    databaseHandlers,
    dbUserHandlers,
    {
      resource: databaseOverview,
      handlers: {
        actions: {
          /** `GET databases/users/{uid}`: every database on the user's own servers. */
          async ofUser(ctx: HandlerContext) {
            const rows = (await ctx.app.db
              .selectFrom('databases')
              .innerJoin('servers', 'servers.id', 'databases.server_id')
              .selectAll('databases')
              .select('servers.name as server_name')
              .where('servers.user_id', '=', ctx.uid)
              .orderBy('servers.name')
              .orderBy('databases.name')
              .execute()) as (DatabaseRow & { server_name: string })[];
            const data = await databaseRecords(ctx.app.db, rows);
            return { data, total: data.length };
          },
          /** `GET databases/collations?server=`: that server's list, read once in 10 minutes. */
          async collations(ctx: HandlerContext) {
            const id = (ctx.query as { server: number }).server;
            const caller = ctx.caller;
            if (!caller) throw new HttpError(401, 'Sign in first');
            const found = await ctx.app.services.servers.findAccessible(id, caller.id);
            if (!found) throw notFound('No such server');
            try {
              const data = await cachedServerRead(
                ctx.app,
                { read: 'mariadb.collations', serverId: id, ttlMs: 600_000 },
                () => ctx.app.agents.call(id, 'mariadb.collations', {}),
              );
              return { data };
            } catch (error) {
              throw httpErrorOf(error);
            }
          },
        },
      },
    },
  ],
});
