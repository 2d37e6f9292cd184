import type { Team } from '../../resources/teams';
import type { Db } from '../../server/db/database';
import { now } from '../../server/db/database';
import type { InviteRow } from './serverInvites';
import type { TeamRow } from './serverRow';

/** The team's servers that its owner still owns. */
export function sharedServers(db: Db, team: Pick<TeamRow, 'id' | 'owner_id'>) {
  return db
    .selectFrom('team_servers')
    .innerJoin('servers', 'servers.id', 'team_servers.server_id')
    .select([
      'servers.id',
      'servers.uuid',
      'servers.name',
      'servers.pending_name',
      'servers.connected',
    ])
    .where('team_servers.team_id', '=', team.id)
    .where('servers.user_id', '=', team.owner_id)
    .orderBy('servers.name')
    .orderBy('servers.id')
    .execute();
}

/** The team's pending (and expired) invitations, oldest first. */
export function teamInvitesOf(db: Db, teamId: number): Promise<InviteRow[]> {
  return db
    .selectFrom('team_invites')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The API record as `viewerId` sees it: invitations only for the owner. */
export async function teamRecord(db: Db, team: TeamRow, viewerId: number): Promise<Team> {
  const [owner, members, servers, invites] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'user_name', 'email'])
      .where('id', '=', team.owner_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('team_members')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select(['users.id', 'users.user_name', 'users.email', 'team_members.created_at'])
      .where('team_members.team_id', '=', team.id)
      .orderBy('team_members.created_at')
      .orderBy('users.id')
      .execute(),
    sharedServers(db, team),
    team.owner_id === viewerId ? teamInvitesOf(db, team.id) : Promise.resolve([]),
  ]);
  const stamp = now();
  return {
    id: team.id,
    name: team.name,
    owner_id: team.owner_id,
    is_owner: team.owner_id === viewerId,
    users: [
      { ...owner, is_owner: true, joined_at: team.created_at },
      ...members.map((m) => ({
        id: m.id,
        user_name: m.user_name,
        email: m.email,
        is_owner: false,
        joined_at: m.created_at,
      })),
    ],
    servers: servers.map((s) => ({
      id: s.id,
      uuid: s.uuid,
      name: s.name,
      pending_name: s.pending_name,
      connected: Boolean(s.connected),
    })),
    invites: invites.map((i) => ({
      id: i.id,
      email: i.email,
      created_at: i.created_at,
      expires_at: i.expires_at,
      expired: i.expires_at < stamp,
    })),
    created_at: team.created_at,
  };
}
