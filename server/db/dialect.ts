import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Which SQL dialect a connection speaks. Its own module so migrations and their helpers can ask
 * without importing the migrator that gathers them (that import was a cycle).
 */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
