import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Team } from '../../resources/teams';
import { TEAM_LIMITS } from '../../resources/teams';
import type { Db } from '../db/database';
import { now, toCount } from '../db/database';
import type { TeamsTable } from '../../features/teams/serverTables';
import type { Selectable } from 'kysely';
import type { ServerRow } from '../db/schema';
import type { InviteRow } from './teamInvites';

export type TeamRow = Selectable<TeamsTable>;

/** Whether `userId` owns the team or is a member of it. */
export type Standing = 'owner' | 'member';

/** Teams, their members and shared servers (invitations answered: ./teamInvites.ts). */
export class TeamRepository {
  constructor(private readonly db: Db) {}

  private teamsOf(userId: number) {
    return this.db
      .selectFrom('teams')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('owner_id', '=', userId),
          eb(
            'id',
            'in',
            eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId),
          ),
        ]),
      );
  }

  /** The teams the user owns or is a member of, a page at a time. */
  async listFor(userId: number, query: ListQuery) {
    const sortBy = query.sort === 'name' ? 'name' : 'created_at';
    const direction = query.order === 'ASC' ? 'asc' : 'desc';
    const base = this.teamsOf(userId);
    const counted = await base
      .clearSelect()
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    const rows = await base
      .orderBy(sortBy, direction)
      .orderBy('id', direction)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { total: toCount(counted?.n), data: rows };
  }

  /** The team, if the user owns it or is a member; else nothing (the route answers 404). */
  async findFor(
    teamId: number,
    userId: number,
  ): Promise<(TeamRow & { standing: Standing }) | undefined> {
    const row = await this.teamsOf(userId).where('id', '=', teamId).executeTakeFirst();
    if (!row) return undefined;
    return { ...row, standing: row.owner_id === userId ? 'owner' : 'member' };
  }

  async hasAny(userId: number): Promise<boolean> {
    return Boolean(await this.teamsOf(userId).select('id').limit(1).executeTakeFirst());
  }

  async countOwned(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('teams')
      .select(sql<number>`count(*)`.as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return toCount(row?.n);
  }

  async create(ownerId: number, name: string): Promise<TeamRow> {
    const stamp = now();
    return this.db
      .insertInto('teams')
      .values({ owner_id: ownerId, name, created_at: stamp, updated_at: stamp })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(teamId: number): Promise<void> {
    await this.db.deleteFrom('teams').where('id', '=', teamId).execute();
  }

  /** The API record as `viewerId` sees it: invitations only for the owner. */
  async record(team: TeamRow, viewerId: number): Promise<Team> {
    const [owner, members, servers, invites] = await Promise.all([
      this.db
        .selectFrom('users')
        .select(['id', 'user_name', 'email'])
        .where('id', '=', team.owner_id)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('team_members')
        .innerJoin('users', 'users.id', 'team_members.user_id')
        .select(['users.id', 'users.user_name', 'users.email', 'team_members.created_at'])
        .where('team_members.team_id', '=', team.id)
        .orderBy('team_members.created_at')
        .orderBy('users.id')
        .execute(),
      this.sharedServers(team),
      team.owner_id === viewerId ? this.invitesOf(team.id) : Promise.resolve([]),
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

  /** The team's servers that its owner still owns. */
  sharedServers(team: Pick<TeamRow, 'id' | 'owner_id'>) {
    return this.db
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

  invitesOf(teamId: number): Promise<InviteRow[]> {
    return this.db
      .selectFrom('team_invites')
      .selectAll()
      .where('team_id', '=', teamId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async memberIds(teamId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('team_members')
      .select('user_id')
      .where('team_id', '=', teamId)
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** Users among `emails` who are members of the team already (lower-cased addresses). */
  async memberEmails(teamId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('team_members')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select('users.email')
      .where('team_members.team_id', '=', teamId)
      .execute();
    return new Set(rows.map((r) => r.email.toLowerCase()));
  }

  /** Servers among `ids` that `ownerId` owns. */
  async ownedAmong(ownerId: number, ids: number[]): Promise<ServerRow[]> {
    if (!ids.length) return [];
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * Applies an owner's change at once. Returns the invitations written (one new id per address:
   * a re-sent invitation invalidates the old link).
   */
  async apply(
    team: TeamRow,
    change: {
      name?: string;
      invite: string[];
      remove: number[];
      cancelInvites: string[];
      share: number[];
      unshare: number[];
    },
  ): Promise<InviteRow[]> {
    const stamp = now();
    const expires = new Date(Date.now() + TEAM_LIMITS.inviteDays * 86_400_000).toISOString();
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('teams')
        .set({ ...(change.name !== undefined ? { name: change.name } : {}), updated_at: stamp })
        .where('id', '=', team.id)
        .execute();
      if (change.remove.length) {
        await trx
          .deleteFrom('team_members')
          .where('team_id', '=', team.id)
          .where('user_id', 'in', change.remove)
          .execute();
      }
      if (change.cancelInvites.length) {
        await trx
          .deleteFrom('team_invites')
          .where('team_id', '=', team.id)
          .where('id', 'in', change.cancelInvites)
          .execute();
      }
      if (change.unshare.length) {
        await trx
          .deleteFrom('team_servers')
          .where('team_id', '=', team.id)
          .where('server_id', 'in', change.unshare)
          .execute();
      }
      if (change.share.length) {
        await trx
          .insertInto('team_servers')
          .values(
            change.share.map((server_id) => ({ team_id: team.id, server_id, created_at: stamp })),
          )
          .onConflict((oc) => oc.columns(['team_id', 'server_id']).doNothing())
          .execute();
      }
      const written: InviteRow[] = [];
      for (const email of change.invite) {
        await trx
          .deleteFrom('team_invites')
          .where('team_id', '=', team.id)
          .where('email', '=', email)
          .execute();
        const row: InviteRow = {
          id: randomUUID(),
          team_id: team.id,
          email,
          invited_by: team.owner_id,
          created_at: stamp,
          expires_at: expires,
        };
        await trx.insertInto('team_invites').values(row).execute();
        written.push(row);
      }
      return written;
    });
  }

  /** A member leaves (or is removed); true if they were one. */
  async removeMember(teamId: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('team_members')
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async memberCount(teamId: number): Promise<number> {
    const [members, invites] = await Promise.all([
      this.db
        .selectFrom('team_members')
        .select(sql<number>`count(*)`.as('n'))
        .where('team_id', '=', teamId)
        .executeTakeFirst(),
      this.db
        .selectFrom('team_invites')
        .select(sql<number>`count(*)`.as('n'))
        .where('team_id', '=', teamId)
        .executeTakeFirst(),
    ]);
    return toCount(members?.n) + toCount(invites?.n);
  }

  /**
   * Photos of the owners and members of the given teams (users without a photo are left out),
   * by user id.
   */
  async photos(teamIds: number[], page: { page: number; perPage: number }) {
    if (!teamIds.length) return { total: 0, data: [] };
    const userIds = this.db
      .selectFrom('teams')
      .select('owner_id as user_id')
      .where('id', 'in', teamIds)
      .union(this.db.selectFrom('team_members').select('user_id').where('team_id', 'in', teamIds));
    const base = this.db.selectFrom('user_photos').where('user_id', 'in', userIds);
    const counted = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    const data = await base
      .select(['user_id', 'data'])
      .orderBy('user_id')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute();
    return { total: toCount(counted?.n), data };
  }

  /** Ids of every team the user owns or is a member of. */
  async teamIdsOf(userId: number): Promise<number[]> {
    const rows = await this.teamsOf(userId).clearSelect().select('id').execute();
    return rows.map((r) => r.id);
  }

  /**
   * Servers others share with teams the user is a member of (one row a server), with the
   * teams sharing each.
   */
  async serversSharedWith(userId: number, query: ListQuery) {
    const shared = this.db
      .selectFrom('team_servers')
      .innerJoin('teams', 'teams.id', 'team_servers.team_id')
      .innerJoin('team_members', 'team_members.team_id', 'teams.id')
      .innerJoin('servers', 'servers.id', 'team_servers.server_id')
      .whereRef('servers.user_id', '=', 'teams.owner_id')
      .where('team_members.user_id', '=', userId)
      .where('servers.user_id', '<>', userId);
    const base = this.db.selectFrom('servers').where('id', 'in', shared.select('servers.id'));
    const counted = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    const sortBy = query.sort === 'created_at' ? 'created_at' : 'name';
    const direction = query.order === 'ASC' ? 'asc' : 'desc';
    const rows = await base
      .selectAll()
      .orderBy(sortBy, direction)
      .orderBy('id', direction)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    const teams = rows.length
      ? await shared
          .select(['servers.id as server_id', 'teams.id', 'teams.name'])
          .where(
            'servers.id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('teams.name')
          .execute()
      : [];
    return {
      total: toCount(counted?.n),
      data: rows.map((row) => ({
        row: { ...row, is_shared: 1 },
        teams: teams.filter((t) => t.server_id === row.id).map((t) => ({ id: t.id, name: t.name })),
      })),
    };
  }
}
