/**
 * Database users: the managed kind (a user and its grants on its server), and what they add
 * to the generic handlers; the password reaches the panel's row only as MariaDB's hash.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { converge } from '../../server/managed/converge';
import type { ManagedHooksOf } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import { type DatabaseRow, type DbUserRow, userStore } from './serverTable';
import type { dbUserInput, dbusers } from './resource';

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

type DbUserBody = z.output<typeof dbUserInput>;

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
/**
 * The databases the body grants, as the request hook loaded them through the route's server
 * (another tenant's was refused at the field): their ids, once each, none on its way out.
 */
function grantable(rows: readonly DatabaseRow[] | undefined): number[] {
  for (const row of rows ?? [])
    if (row.status === 'deleting')
      throw fieldError('databases', `No database #${row.id} on this server`);
  return [...new Set((rows ?? []).map((row) => row.id))];
}

async function setGrants(db: Db, userId: number, databaseIds: number[]) {
  await db.deleteFrom('dbuser_grants').where('dbuser_id', '=', userId).execute();
  if (databaseIds.length)
    await db
      .insertInto('dbuser_grants')
      .values(databaseIds.map((database_id) => ({ dbuser_id: userId, database_id })))
      .execute();
}

export const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/** The user written again on its server after its grants changed (queued while offline). */
export async function reapplyUser(ctx: HandlerContext, row: DbUserRow) {
  const pending = await userStore(ctx).change(row, {});
  return converge(ctx.app, ctx.server, dbUserKind, pending, 'apply', {
    message: `Change the databases of ${row.name}`,
    actorId: actorOf(ctx),
  });
}

/** What database users add to the generic handlers (app database users use them too). */
export const dbUserHooks: ManagedHooksOf<typeof dbusers, DbUserBody, Partial<DbUserBody>> = {
  async create(ctx, body) {
    if (await userStore(ctx).find(ctx.server.id, 'name', body.name))
      throw fieldError('name', 'This server has a database user of this name');
    grantable(ctx.loaded.databases);
    return { name: body.name, password_hash: nativeHash(body.password) };
  },
  async inserted(ctx, row, body) {
    await setGrants(ctx.app.db, row.id, [...new Set(body.databases)]);
  },
  async update(ctx, body, row) {
    if (body.name !== undefined && body.name !== row.name)
      throw fieldError('name', 'A database user keeps its name: create another one');
    const ids = grantable(ctx.loaded.databases);
    await setGrants(ctx.app.db, row.id, ids);
    return body.password ? { password_hash: nativeHash(body.password) } : {};
  },
  record: ({ password_hash: _hash, ...row }) => ({ ...row, databases: [] }),
  records: (ctx, rows) => userRecords(ctx.app.db, rows),
};
