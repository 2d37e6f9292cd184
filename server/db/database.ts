import path from 'node:path';
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import SQLite from './sqliteDriver';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
}

/** The embedded SQLite file by default; PostgreSQL when a URL is given. */
export function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** Connection errors outside any query (server restart, failover, terminated backend). */
  onPoolError?: (error: Error) => void;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A connection the server drops (restart, failover, terminated backend) emits 'error' on
    // its client, idle in the pool or lent out (a transaction between two queries); the pool
    // listens only while it is idle, and an 'error' nobody listens to stops the process. Each
    // client says its first one (once: a dropped connection errs again as its socket ends); a
    // query on a lent-out one fails, and the pool discards it when it comes back.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      client.once('error', (error) => options.onPoolError?.(error));
    });
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(options.dataDir, 'stackdeck.db');
  // Password hashes and sealed credentials live here: the file is created 0600 before SQLite
  // opens it (no moment readable by others), and SQLite gives its WAL files the same mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  sqliteHandles.set(db, sqlite);
  return { db, dialect: 'sqlite' };
}

const sqliteHandles = new WeakMap<object, BetterSqlite3.Database>();

/** The better-sqlite3 handle behind a Kysely instance, when the database is SQLite. */
export function sqliteHandleOf(db: object): BetterSqlite3.Database | undefined {
  return sqliteHandles.get(db);
}

/**
 * Kysely prepares every query anew; preparing costs several times the query itself on hot
 * paths (measured: 45 µs vs 11 µs a lookup). Statements are reused by SQL text, most recent
 * 500. Reuse is safe: better-sqlite3 runs each statement to completion synchronously.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, size = 500) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string): BetterSqlite3.Statement {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text); // re-insert below: Map order is the recency order
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

export const now = (): string => new Date().toISOString();

/** COUNT(*) is a string on PostgreSQL (int8) and a number on SQLite. */
export const toCount = (value: string | number | bigint | null | undefined): number =>
  Number(value ?? 0);
