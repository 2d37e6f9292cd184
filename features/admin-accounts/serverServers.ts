/**
 * `GET admin/servers`: three queries whatever the page's size (the page, its count, the page's
 * owners; never one per row). The default order (newest first) and the name order walk the
 * indexes of migration 0062, so the first page of 100,000 servers reads a page, not the table.
 */
import { type ExpressionBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { ListQuery } from '../../resources/define';
import { SERVER_PENDING_PREFIX } from '../../resources/servers';
import { type Db, toCount } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { containsText } from '../../server/repositories/paging';
import type { AdminServer, AdminServerStatus, adminServerFilters } from './schemas';

type Filters = z.output<typeof adminServerFilters>;
type Eb = ExpressionBuilder<Database, 'servers' | 'users'>;

/** `cs-` names a pending install (spec 3); `_` and `%` are LIKE's, so the prefix is escaped. */
const pendingPattern = `${SERVER_PENDING_PREFIX.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const isPending = sql<boolean>`(servers.connected = 0 and servers.name like ${pendingPattern} escape '\\')`;

function statusIs(eb: Eb, status: AdminServerStatus) {
  if (status === 'connected') return eb('servers.connected', '=', 1);
  if (status === 'pending') return isPending;
  return eb.and([eb('servers.connected', '=', 0), eb.not(isPending)]);
}

function where(eb: Eb, filters: Filters) {
  const all = [];
  if (filters.user_id) all.push(eb('servers.user_id', '=', filters.user_id));
  if (filters.status) all.push(statusIs(eb, filters.status));
  if (filters.q)
    all.push(
      eb.or([
        containsText('servers.name', filters.q),
        containsText('servers.pending_name', filters.q),
        containsText('servers.ip4', filters.q),
      ]),
    );
  if (filters.owner)
    all.push(
      eb.or([
        containsText('users.email', filters.owner),
        containsText('users.user_name', filters.owner),
      ]),
    );
  return eb.and(all);
}

const SORTS = { created_at: 'servers.created_at', name: 'servers.name' } as const;

export async function listAdminServers(
  db: Db,
  query: ListQuery & Filters,
): Promise<{ data: AdminServer[]; total: number }> {
  // The page is read from servers alone (users joined only to filter by owner), then its owners
  // in one query: a plan that cannot degrade into joining every server to every user, whatever
  // the statistics say (a freshly loaded PostgreSQL table has none until it is analysed).
  const servers = query.owner
    ? db
        .selectFrom('servers')
        .innerJoin('users', 'users.id', 'servers.user_id')
        .where((eb) => where(eb, query))
    : db.selectFrom('servers').where((eb) => where(eb as Eb, query));
  const sortBy = SORTS[query.sort as keyof typeof SORTS] ?? SORTS.created_at;
  const direction = query.order === 'ASC' ? sql`asc` : sql`desc`;
  const [rows, counted] = await Promise.all([
    servers
      .select([
        'servers.id',
        'servers.uuid',
        'servers.name',
        'servers.pending_name',
        'servers.ip4',
        'servers.os_version',
        'servers.provider',
        'servers.connected',
        'servers.last_seen_at',
        'servers.created_at',
        'servers.user_id',
      ])
      .select(isPending.as('pending'))
      .orderBy(sql`${sql.ref(sortBy)} ${direction}`)
      .orderBy(sql`${sql.ref('servers.id')} ${direction}`)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute(),
    servers.select(sql<number>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  const ownerIds = [...new Set(rows.map((row) => row.user_id))];
  const owners = ownerIds.length
    ? await db
        .selectFrom('users')
        .select(['id', 'user_name', 'email'])
        .where('id', 'in', ownerIds)
        .execute()
    : [];
  const ownerOf = new Map(owners.map((owner) => [owner.id, owner]));
  return {
    total: toCount(counted?.n),
    data: rows.map(({ pending, connected, pending_name, ...row }) => {
      const waiting = Boolean(Number(pending));
      const owner = ownerOf.get(row.user_id);
      return {
        ...row,
        // A pending install keeps its cs- name until it connects: show the name the user chose.
        name: waiting && pending_name ? pending_name : row.name,
        status: connected ? 'connected' : waiting ? 'pending' : 'disconnected',
        owner_name: owner?.user_name ?? '',
        owner_email: owner?.email ?? '',
      };
    }),
  };
}
