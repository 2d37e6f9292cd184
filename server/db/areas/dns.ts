import type { Migration } from 'kysely';

/**
 * The tables of third-party keys and DNS (issue 4): merged into `Database` (server/db/schema.ts), and their
 * migrations, merged into server/db/migrate.ts in name order.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the area lands
export interface DnsTables {}

export const dnsMigrations: Record<string, Migration> = {};
