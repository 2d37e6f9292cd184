import type { Selectable } from 'kysely';
import type { TeamsTable } from './serverTables';

/** A team as stored (shared by the team repository's parts without importing each other). */
export type TeamRow = Selectable<TeamsTable>;
