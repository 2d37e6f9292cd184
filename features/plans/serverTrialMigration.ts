import type { Kysely } from 'kysely';
import type { BizplansTable } from './serverTables';

/**
 * 0067_trial_limits: Trial ("Basic for a trial period") was seeded with one server, ten apps and
 * one seat, below its own description; it gets Basic's servers, apps and seats (its backup
 * storage stays the 10 GB every account had), unless an admin changed it since.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await (db as unknown as Kysely<{ bizplans: BizplansTable }>)
    .updateTable('bizplans')
    .set({ max_servers: 5, max_webapps: null, max_team_members: 3 })
    .where('id', '=', 1)
    .where('max_servers', '=', 1)
    .where('max_webapps', '=', 10)
    .where('max_team_members', '=', 1)
    .execute();
}

export async function down(): Promise<void> {}
