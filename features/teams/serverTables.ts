import type { Generated } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

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

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends TeamsTables {}
}
