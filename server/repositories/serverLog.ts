import type { Db } from '../db/database';
import { now } from '../db/database';
import type { ListQuery } from '../../resources/define';
import { pageOf } from './paging';

/** A server's install events and its activity log (every op: pending, then done or failed). */
export class ServerLogRepository {
  constructor(private readonly db: Db) {}

  async addEvent(serverId: number, event: string, code: number) {
    await this.db
      .insertInto('server_events')
      .values({ server_id: serverId, event: event.slice(0, 500), code, created_at: now() })
      .execute();
  }

  events(serverId: number) {
    return this.db
      .selectFrom('server_events')
      .select(['event', 'code', 'created_at'])
      .where('server_id', '=', serverId)
      .orderBy('id', 'asc')
      .execute();
  }

  async clearEvents(serverId: number) {
    await this.db.deleteFrom('server_events').where('server_id', '=', serverId).execute();
  }

  async begin(entry: {
    serverId: number;
    userId: number | null;
    actorId: number | null;
    /** Who did it, as shown (server/http/who.ts). */
    who: string;
    message: string;
  }) {
    const row = await this.db
      .insertInto('server_activity')
      .values({
        server_id: entry.serverId,
        user_id: entry.userId,
        actor_id: entry.actorId,
        who: entry.who.slice(0, 300),
        message: entry.message.slice(0, 500),
        status: 'pending',
        error: null,
        created_at: now(),
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async finish(id: number, error: string | null) {
    await this.db
      .updateTable('server_activity')
      .set({
        status: error ? 'failed' : 'done',
        error: error?.slice(0, 2000) ?? null,
        finished_at: now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** An entry still pending past every op's time-out lost its answer (a panel restart): failed. */
  async failStale(olderThanMs: number) {
    await this.db
      .updateTable('server_activity')
      .set({ status: 'failed', error: 'No answer from the server in time', finished_at: now() })
      .where('status', '=', 'pending')
      .where('created_at', '<', new Date(Date.now() - olderThanMs).toISOString())
      .execute();
  }

  list(serverId: number, query: ListQuery & { status?: string; q?: string }) {
    let select = this.db
      .selectFrom('server_activity')
      .select(['id', 'message', 'status', 'error', 'actor_id', 'who', 'created_at'])
      .where('server_id', '=', serverId);
    if (query.status) select = select.where('status', '=', query.status as 'pending');
    if (query.q) select = select.where('message', 'like', `%${query.q}%`);
    return pageOf(select, query, ['created_at']);
  }
}
