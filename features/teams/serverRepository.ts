import { sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Team } from '../../resources/teams';
import type { Db } from '../../server/db/database';
import { now, toCount } from '../../server/db/database';
import type { ServerRow } from '../../server/db/schema';
import { type TeamChange, applyTeamChange } from './serverChange';
import type { InviteRow } from './serverInvites';
import type { TeamRow } from './serverRow';
import { sharedServers, teamInvitesOf, teamRecord } from './serverRecord';
import { serversSharedWith, teamPhotos } from './serverSharing';

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

  /**
   * The team `teamId` as `userId` reaches it (owner or member, with which), else nothing: the
   * route answers 404, like a missing team. The one membership check of the team routes: every
   * path's `{teamId}` is looked up through it.
   */
  async findOwned(
    userId: number,
    teamId: number,
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
  record(team: TeamRow, viewerId: number): Promise<Team> {
    return teamRecord(this.db, team, viewerId);
  }

  /** The team's servers that its owner still owns. */
  sharedServers(team: Pick<TeamRow, 'id' | 'owner_id'>) {
    return sharedServers(this.db, team);
  }

  invitesOf(teamId: number): Promise<InviteRow[]> {
    return teamInvitesOf(this.db, teamId);
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
  apply(
    team: TeamRow,
    change: TeamChange,
    check?: (trx: Db) => Promise<void>,
  ): Promise<InviteRow[]> {
    return applyTeamChange(this.db, team, change, check);
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

  /** Photos of the owners and members of the given teams, by user id (see teamPhotos). */
  photos(teamIds: number[], page: { page: number; perPage: number }) {
    return teamPhotos(this.db, teamIds, page);
  }

  /** Ids of every team the user owns or is a member of. */
  async teamIdsOf(userId: number): Promise<number[]> {
    const rows = await this.teamsOf(userId).clearSelect().select('id').execute();
    return rows.map((r) => r.id);
  }

  /** Servers others share with teams the user is a member of (see serversSharedWith). */
  serversSharedWith(userId: number, query: ListQuery) {
    return serversSharedWith(this.db, userId, query);
  }
}
