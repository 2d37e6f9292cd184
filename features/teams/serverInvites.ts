import { sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Db } from '../../server/db/database';
import { now, toCount } from '../../server/db/database';

export interface InviteRow {
  id: string;
  team_id: number;
  email: string;
  invited_by: number;
  created_at: string;
  expires_at: string;
}

/** Team invitations from the invitee's side: those waiting for an address, accepting, declining. */
export class TeamInviteRepository {
  constructor(private readonly db: Db) {}

  /** Pending (unexpired) invitations to an address, with their team and inviter. */
  async invitesTo(email: string, query: ListQuery) {
    const base = this.db
      .selectFrom('team_invites')
      .innerJoin('teams', 'teams.id', 'team_invites.team_id')
      .innerJoin('users', 'users.id', 'team_invites.invited_by')
      .where('team_invites.email', '=', email.toLowerCase())
      .where('team_invites.expires_at', '>', now());
    const counted = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    const direction = query.order === 'ASC' ? 'asc' : 'desc';
    const data = await base
      .select([
        'team_invites.id',
        'team_invites.team_id',
        'teams.name as team_name',
        'users.user_name as invited_by',
        'team_invites.created_at',
        'team_invites.expires_at',
      ])
      .orderBy('team_invites.created_at', direction)
      .orderBy('team_invites.id', direction)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { total: toCount(counted?.n), data };
  }

  /**
   * The invitation `id` if it is addressed to `userId`'s address, else nothing: an invitation to
   * someone else looks like none at all (404). The one ownership check of the invitation routes.
   */
  findOwned(userId: number, id: string): Promise<InviteRow | undefined> {
    return this.db
      .selectFrom('team_invites')
      .selectAll()
      .where('id', '=', id)
      .where('email', '=', (eb) =>
        eb
          .selectFrom('users')
          .select((u) => u.fn<string>('lower', ['users.email']).as('email'))
          .where('users.id', '=', userId),
      )
      .executeTakeFirst();
  }

  async deleteInvite(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('team_invites').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The invitation is used once: the row goes and the user joins (if not in already). */
  async accept(
    invite: InviteRow,
    userId: number,
    /** Runs last in the transaction, once the user is in; its error undoes the accept. */
    check?: (trx: Db) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const used = await trx
        .deleteFrom('team_invites')
        .where('id', '=', invite.id)
        .executeTakeFirst();
      if (Number(used.numDeletedRows) !== 1) return false;
      await trx
        .insertInto('team_members')
        .values({ team_id: invite.team_id, user_id: userId, created_at: now() })
        .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
        .execute();
      await check?.(trx);
      return true;
    });
  }
}
