import { sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Db } from '../../server/db/database';
import { toCount } from '../../server/db/database';

/** What teams share with their members: the owners' servers and the members' photos. */
/**
 * Photos of the owners and members of the given teams (users without a photo are left out),
 * by user id.
 */
export async function teamPhotos(
  db: Db,
  teamIds: number[],
  page: { page: number; perPage: number },
) {
  if (!teamIds.length) return { total: 0, data: [] };
  const userIds = db
    .selectFrom('teams')
    .select('owner_id as user_id')
    .where('id', 'in', teamIds)
    .union(db.selectFrom('team_members').select('user_id').where('team_id', 'in', teamIds));
  const base = db.selectFrom('user_photos').where('user_id', 'in', userIds);
  const counted = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const data = await base
    .select(['user_id', 'data'])
    .orderBy('user_id')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  return { total: toCount(counted?.n), data };
}

/**
 * Servers others share with teams the user is a member of (one row a server), with the
 * teams sharing each.
 */
export async function serversSharedWith(db: Db, userId: number, query: ListQuery) {
  const shared = db
    .selectFrom('team_servers')
    .innerJoin('teams', 'teams.id', 'team_servers.team_id')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .innerJoin('servers', 'servers.id', 'team_servers.server_id')
    .whereRef('servers.user_id', '=', 'teams.owner_id')
    .where('team_members.user_id', '=', userId)
    .where('servers.user_id', '<>', userId);
  const base = db.selectFrom('servers').where('id', 'in', shared.select('servers.id'));
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
