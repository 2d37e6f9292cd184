import { loadedChild } from '../../server/http/handlers';
/**
 * Databases: the managed kind (a database and its collation on its server), and what they add
 * to the generic handlers (a rename moves the tables first; a user's grant taken off).
 */
import type { z } from 'zod';
import { readOp } from '../../server/agents/runOp';
import { emit } from '../../server/events/emit';
import type { Db } from '../../server/db/database';
import { fieldError } from '../../server/http/errors';
import type { ManagedHooksOf } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import { type DatabaseRow, dbStore } from './serverTable';
import { reapplyUser } from './serverDbUsers';
import type { databaseInput, databases } from './resource';

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

type DatabaseBody = z.output<typeof databaseInput>;

/** A database record with the users granted on it, a page at a time (one query). */
export async function databaseRecords<Row extends DatabaseRow>(db: Db, rows: Row[]) {
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

/** What databases add to the generic handlers (app databases use them too). */
export const databaseHooks: ManagedHooksOf<
  typeof databases,
  DatabaseBody,
  Partial<DatabaseBody>
> = {
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
  /** What keeps rows about the database (its backup policies) hears of it first. */
  async deleting(ctx, row) {
    await emit(ctx.app, 'database.deleting', { ctx, database: row });
  },
  actions: {
    /** `PATCH databases/{dbId}?userdel=`: the user loses its grant on this database. */
    async userdel(ctx) {
      const database = loadedChild(ctx.child);
      // Loaded through this server by the request hook (another's answers 400 at the field).
      const user = ctx.loaded.userdel;
      await ctx.app.db
        .deleteFrom('dbuser_grants')
        .where('dbuser_id', '=', user.id)
        .where('database_id', '=', database.id)
        .execute();
      const result = await reapplyUser(ctx, user);
      if (result.state === 'failed') throw result.error;
      if (result.state === 'waiting') ctx.reply.code(202);
      const [record] = await databaseRecords(ctx.app.db, [database]);
      return record!;
    },
  },
};
