import { randomBytes, randomUUID } from 'node:crypto';
import type { Report } from '../../resources/agent/protocol';
import type { ListQuery } from '../../resources/define';
import { SERVER_PENDING_PREFIX, type Server } from '../../resources/servers';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/database';
import { now, toCount } from '../db/database';
import type { Database, ServerRow } from '../db/schema';
import { pageOf } from './paging';

/** A server row and its latest report (from memory when online, else as last saved). */
export function toServerRecord(row: ServerRow, live?: Report | null): Server {
  let saved: Report | null = null;
  if (!live && row.live_json) {
    try {
      saved = JSON.parse(row.live_json) as Report;
    } catch {
      saved = null;
    }
  }
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    pending_name: row.pending_name,
    ip4: row.ip4,
    provider: row.provider,
    connected: Boolean(row.connected),
    is_available: Boolean(row.is_available),
    is_shared: Boolean(row.is_shared),
    is_accessible: Boolean(row.is_accessible),
    os_version: row.os_version,
    timezone: row.timezone,
    root_password: Boolean(row.root_password),
    hostname: row.hostname,
    kernel_version: row.kernel_version,
    agent_version: row.agent_version,
    last_seen_at: row.last_seen_at,
    live: live ?? saved,
    created_at: row.created_at,
  };
}

/** Who may see a server: its owner, members of a team it is shared with, admins and staff. */
export interface ServerViewer {
  id: number;
  isAdmin: boolean;
  isStaff: boolean;
}

/**
 * `userId` reaches the server through a team: it is shared with a team the user is a member
 * of, and the team's owner still owns it (a transferred server leaves its old owner's teams).
 * Read on every request, so a removed member loses access on their very next one.
 */
function reachedThroughTeam(eb: ExpressionBuilder<Database, 'servers'>, userId: number) {
  return eb.exists(
    eb
      .selectFrom('team_servers')
      .innerJoin('teams', 'teams.id', 'team_servers.team_id')
      .innerJoin('team_members', 'team_members.team_id', 'teams.id')
      .select(sql<number>`1`.as('one'))
      .whereRef('team_servers.server_id', '=', 'servers.id')
      .whereRef('teams.owner_id', '=', 'servers.user_id')
      .where('team_members.user_id', '=', userId),
  );
}

/** Owned by the user, or reached through one of their teams. */
function visibleTo(eb: ExpressionBuilder<Database, 'servers'>, userId: number) {
  return eb.or([eb('servers.user_id', '=', userId), reachedThroughTeam(eb, userId)]);
}

/**
 * The ids of the servers `userId` reaches (owned or through a team), as a subquery: for the rows
 * of features that hang under a server but are loaded through the account (backup policies).
 */
export function visibleServerIds(db: Db, userId: number) {
  return db
    .selectFrom('servers')
    .select('servers.id')
    .where((eb) => visibleTo(eb, userId));
}

/** The row as `userId` sees it: `is_shared` when it is reached through a team. */
function asSeenBy(row: ServerRow, userId: number): ServerRow {
  return { ...row, is_shared: row.user_id === userId ? 0 : 1 };
}

export class ServerRepository {
  constructor(private readonly db: Db) {}

  /** The user's servers and those shared with their teams (`is_shared` set on the latter). */
  async listVisible(userId: number, query: ListQuery) {
    const page = await pageOf(
      this.db
        .selectFrom('servers')
        .selectAll()
        .where((eb) => visibleTo(eb, userId)),
      query,
      ['created_at', 'name'],
    );
    return { total: page.total, data: page.data.map((row) => asSeenBy(row, userId)) };
  }

  /** Strictly the user's own server (install script, lifecycle): a shared one is not theirs. */
  findOwned(serverId: number, userId: number): Promise<ServerRow | undefined> {
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where('id', '=', serverId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * The tenant check of `{sid}`: a server of that user or shared with one of their teams
   * (`is_shared` set then), or nothing (the route answers 404).
   */
  async findAccessible(serverId: number, userId: number): Promise<ServerRow | undefined> {
    const row = await this.db
      .selectFrom('servers')
      .selectAll()
      .where('id', '=', serverId)
      .where((eb) => visibleTo(eb, userId))
      .executeTakeFirst();
    return row && asSeenBy(row, userId);
  }

  async visibleByUuid(uuid: string, viewer: ServerViewer): Promise<ServerRow | undefined> {
    let query = this.db.selectFrom('servers').selectAll().where('uuid', '=', uuid);
    if (!viewer.isAdmin && !viewer.isStaff) query = query.where((eb) => visibleTo(eb, viewer.id));
    const row = await query.executeTakeFirst();
    return row && asSeenBy(row, viewer.id);
  }

  /** A new server: cs- name and an install key until its agent connects. */
  async create(
    userId: number,
    wish: { name?: string; ip4?: string; provider?: string; root_password?: boolean },
    /** The caller's transaction, when the row is written in one. */
    db: Db = this.db,
  ) {
    const stamp = now();
    return db
      .insertInto('servers')
      .values({
        uuid: randomUUID(),
        user_id: userId,
        name: `${SERVER_PENDING_PREFIX}${randomBytes(4).toString('hex')}`,
        pending_name: wish.name ?? null,
        root_password: wish.root_password ? 1 : 0,
        ip4: wish.ip4 ?? null,
        provider: wish.provider ?? null,
        connected: 0,
        is_available: 1,
        is_shared: 0,
        is_accessible: 1,
        os_version: null,
        timezone: null,
        agent_key_hash: null,
        install_key: randomBytes(24).toString('base64url'),
        hostname: null,
        kernel_version: null,
        agent_version: null,
        last_seen_at: null,
        live_json: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(serverId: number, patch: Partial<Omit<ServerRow, 'id' | 'uuid' | 'created_at'>>) {
    return this.db
      .updateTable('servers')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', serverId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(serverId: number) {
    await this.db.deleteFrom('servers').where('id', '=', serverId).execute();
  }

  /** Only while the install key is live, i.e. before the agent's first connection. */
  findByInstallKey(installKey: string) {
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where('install_key', '=', installKey)
      .executeTakeFirst();
  }

  /**
   * The agent is connected. The first time (the install's end), the install key stops working
   * and the server takes the name the user chose (or its host name, from the first report).
   */
  async markConnected(serverId: number): Promise<{ first: boolean }> {
    const row = await this.db
      .selectFrom('servers')
      .selectAll()
      .where('id', '=', serverId)
      .executeTakeFirst();
    if (!row) return { first: false };
    const first = row.install_key !== null;
    await this.update(serverId, {
      connected: 1,
      install_key: null,
      ...(first && row.pending_name ? { name: row.pending_name, pending_name: null } : {}),
    });
    return { first };
  }

  /** A server by id, for work the panel does on its own (the sweeper): no tenant applies. */
  findById(serverId: number): Promise<ServerRow | undefined> {
    return this.db.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirst();
  }

  /** The servers whose agent is connected (to this panel or another). */
  async connectedIds(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('servers')
      .select('id')
      .where('connected', '=', 1)
      .execute();
    return rows.map((r) => r.id);
  }

  async markDisconnected(serverId: number) {
    await this.db.updateTable('servers').set({ connected: 0 }).where('id', '=', serverId).execute();
  }

  /** Host name, OS and versions as the agent reports them. */
  async saveFacts(serverId: number, report: Report) {
    const row = await this.db
      .selectFrom('servers')
      .select(['name'])
      .where('id', '=', serverId)
      .executeTakeFirst();
    if (!row) return;
    await this.update(serverId, {
      hostname: report.hostname,
      kernel_version: report.kernel_version,
      agent_version: report.agent_version,
      os_version: report.os,
      timezone: report.timezone,
      // Still cs-...: no name was chosen, so the machine names itself.
      ...(row.name.startsWith(SERVER_PENDING_PREFIX) ? { name: report.hostname } : {}),
    });
  }

  async count(filter: { connected?: boolean } = {}): Promise<number> {
    let q = this.db.selectFrom('servers').select((eb) => eb.fn.countAll<number>().as('n'));
    if (filter.connected) q = q.where('connected', '=', 1);
    return toCount((await q.executeTakeFirst())?.n);
  }
}
