import type { Generated, Migration } from 'kysely';
import * as teams from '../migrations/0003_teams';
import type { Timestamp } from '../columns';

export interface TeamsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Members other than the owner (the owner is `teams.owner_id`). */
export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  created_at: Timestamp;
}

/** A pending invitation; accepting, declining or withdrawing it deletes the row. */
export interface TeamInvitesTable {
  /** Random UUID: the link's token, bound to `email`. */
  id: string;
  team_id: number;
  email: string;
  invited_by: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A server of the team's owner shared with the team. */
export interface TeamServersTable {
  team_id: number;
  server_id: number;
  created_at: Timestamp;
}

/**
 * The tables of teams (issue 4): merged into `Database` (server/db/schema.ts), and their
 * migrations, merged into server/db/migrate.ts in name order.
 */
export interface TeamsTables {
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_invites: TeamInvitesTable;
  team_servers: TeamServersTable;
}

export const teamsMigrations: Record<string, Migration> = { '0003_teams': teams };
