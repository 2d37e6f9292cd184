/**
 * What databases offers other features, of the code the panel loads: they import it from here,
 * never from its other files (api.ts holds what every program loads; lint: stackdeck/feature-
 * api).
 */
export { databaseHooks, databaseKind } from './serverDatabases';
export { dbUserHooks, dbUserKind } from './serverDbUsers';
export type { DatabaseRow, DbUserRow } from './serverTable';
