import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import { prepareQuery } from '../db/prepared';
import type { UserRow } from '../db/schema';
import type { Caller } from '../http/caller';
import { unauthorized } from '../http/errors';
import { safeEqual, sha256 } from './hash';
import type { Sessions } from './sessions';

/** The row is kept as read (extra columns and all): copying 30-odd columns costs more than the query. */
function toCaller(
  row: UserRow & { photo_updated_at: string | null },
  sessionId: string | null,
  actorId: number | null,
): Caller {
  if (row.disabled) throw unauthorized('account disabled');
  return {
    id: row.id,
    email: row.email,
    // An admin's powers are not lent through an impersonation token.
    isAdmin: Boolean(row.is_admin) && actorId === null,
    isStaff: Boolean(row.is_admin_staff) && actorId === null,
    planId: row.plan_id,
    actorId,
    sessionId,
    row,
    photoUpdatedAt: row.photo_updated_at,
  };
}

/**
 * Resolves who is calling: a bearer token (its session row must be live) or an API key pair.
 * One prepared query each, run on every authenticated request.
 */
export class CallerLookup {
  private readonly bySession;
  private readonly byApiKey;

  constructor(
    db: Db,
    private readonly sessions: Sessions,
  ) {
    const raw = db as unknown as Kysely<never>;
    this.bySession = prepareQuery<
      UserRow & {
        photo_updated_at: string | null;
        session_actor_id: number | null;
        revoked_at: string | null;
        actor_is_admin: number | null;
        actor_disabled: number | null;
      },
      [string]
    >(
      raw,
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .leftJoin('users as actor', 'actor.id', 'sessions.actor_id')
        .leftJoin('user_photos', 'user_photos.user_id', 'users.id')
        .selectAll('users')
        .select([
          'user_photos.updated_at as photo_updated_at',
          'sessions.actor_id as session_actor_id',
          'sessions.revoked_at',
          'actor.is_admin as actor_is_admin',
          'actor.disabled as actor_disabled',
        ])
        .where('sessions.id', '=', ''),
    );
    this.byApiKey = prepareQuery<UserRow & { photo_updated_at: string | null }, [string]>(
      raw,
      db
        .selectFrom('users')
        .leftJoin('user_photos', 'user_photos.user_id', 'users.id')
        .selectAll('users')
        .select('user_photos.updated_at as photo_updated_at')
        .where('users.api_key', '=', ''),
    );
  }

  async fromToken(token: string): Promise<Caller> {
    const claims = await this.sessions.verify(token);
    const [row] = await this.bySession(claims.sessionId);
    if (!row || row.id !== claims.userId || row.revoked_at) throw unauthorized('token revoked');
    const actorId = row.session_actor_id;
    if (actorId !== claims.actorId) throw unauthorized('invalid token');
    // An impersonation token lives only as long as its admin is still an enabled admin.
    if (actorId !== null && (!row.actor_is_admin || row.actor_disabled)) {
      throw unauthorized('token revoked');
    }
    return toCaller(row, claims.sessionId, actorId);
  }

  async fromApiKey(key: string, secret: string): Promise<Caller> {
    const [row] = await this.byApiKey(key);
    if (!row?.api_secret_hash || !safeEqual(row.api_secret_hash, sha256(secret))) {
      throw unauthorized('invalid API key');
    }
    return toCaller(row, null, null);
  }
}
