import type { ListQuery } from '../../resources/define';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { containsText, pageOf } from './paging';

export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

/** Sign-in attempts (authlogs) and account activity (accntactivity). */
export class LogRepository {
  constructor(private readonly db: Db) {}

  async authAttempt(
    entry: { userId: number | null; email: string; outcome: string } & RequestOrigin,
  ) {
    await this.db
      .insertInto('auth_logs')
      .values({
        user_id: entry.userId,
        email: entry.email.slice(0, 254),
        ip: entry.ip.slice(0, 64),
        user_agent: entry.userAgent.slice(0, 512),
        outcome: entry.outcome,
        created_at: now(),
      })
      .execute();
  }

  authAttempts(userId: number, query: ListQuery & { outcome?: string }) {
    let select = this.db
      .selectFrom('auth_logs')
      .select(['id', 'created_at', 'ip', 'user_agent', 'outcome'])
      .where('user_id', '=', userId);
    if (query.outcome) select = select.where('outcome', '=', query.outcome);
    return pageOf(select, query, ['created_at']);
  }

  async activity(entry: {
    userId: number;
    actorId: number | null;
    /** Who did it, as shown (server/http/who.ts). */
    who: string;
    message: string;
    ip: string;
  }) {
    await this.db
      .insertInto('account_activity')
      .values({
        user_id: entry.userId,
        actor_id: entry.actorId,
        who: entry.who.slice(0, 300),
        message: entry.message.slice(0, 500),
        ip: entry.ip.slice(0, 64),
        created_at: now(),
      })
      .execute();
  }

  activities(userId: number, query: ListQuery & { q?: string }) {
    let select = this.db
      .selectFrom('account_activity')
      .select(['id', 'message', 'created_at', 'ip', 'actor_id', 'who'])
      .where('user_id', '=', userId);
    if (query.q) select = select.where(containsText('message', query.q));
    return pageOf(select, query, ['created_at']);
  }
}
