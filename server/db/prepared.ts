import type { Compilable } from 'kysely';
import { type Db, sqliteHandleOf } from './database';

/**
 * A query built and compiled once, run with fresh parameter values (in the order they appear
 * in the query). For queries run on every request: building and compiling a Kysely query
 * costs more than running it. On SQLite the compiled statement runs on better-sqlite3 directly,
 * skipping Kysely's connection layers (measured: most of a lookup's cost), unless a
 * transaction holds the connection: then it queues through Kysely like any other query, so it
 * never reads inside another request's transaction.
 */
export function prepareQuery<Row, Params extends unknown[]>(
  db: Db,
  query: Compilable<Row>,
): (...parameters: Params) => Promise<Row[]> {
  const compiled = query.compile();
  const sqlite = sqliteHandleOf(db);
  const statement = sqlite?.prepare(compiled.sql);
  return async (...parameters) => {
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`prepared query takes ${compiled.parameters.length} parameters`);
    }
    if (sqlite && statement && !sqlite.inTransaction) {
      return (
        statement.reader ? statement.all(...parameters) : (statement.run(...parameters), [])
      ) as Row[];
    }
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}

/**
 * A write compiled once and run for many rows in one transaction. On SQLite it runs on
 * better-sqlite3 directly (microseconds a row, where Kysely costs tens), unless another
 * transaction holds the connection; PostgreSQL goes through Kysely as usual.
 */
export function prepareBatch<Params extends unknown[]>(
  db: Db,
  query: Compilable<unknown>,
): (rows: readonly Params[]) => Promise<void> {
  const compiled = query.compile();
  const sqlite = sqliteHandleOf(db);
  const statement = sqlite?.prepare(compiled.sql);
  const runAll =
    sqlite && statement
      ? sqlite.transaction((rows: readonly Params[]) => rows.forEach((p) => statement.run(...p)))
      : null;
  return async (rows) => {
    if (!rows.length) return;
    if (sqlite && runAll && !sqlite.inTransaction) {
      runAll(rows);
      return;
    }
    await db.transaction().execute(async (trx) => {
      for (const parameters of rows) await trx.executeQuery({ ...compiled, parameters });
    });
  };
}
