/**
 * The column types every table uses. Types only, with no imports: the feature folders' tables
 * (features/<name>/serverTables.ts) use them and augment server/db/schema.ts, so they live apart
 * from both to keep the imports one-way.
 */

/** Flags are 0/1 integers on both SQLite and PostgreSQL; repositories turn them into booleans. */
export type Flag = number;
/** Timestamps are ISO-8601 UTC text on both dialects: sortable and dialect-neutral. */
export type Timestamp = string;
