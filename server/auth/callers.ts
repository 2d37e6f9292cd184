import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import { prepareQuery } from '../db/prepared';
import type { Caller } from '../http/caller';
import { unauthorized } from '../http/errors';
import { ApiKeyRepository } from '../repositories/apiKeys';
import { type UserRowWithKey, newestApiKey } from '../repositories/users';
import { safeEqual, sha256 } from './hash';
import type { Sessions } from './sessions';

/** The row is kept as read (extra columns and all): copying 30-odd columns costs more than the query. */
function toCaller(
  row: UserRowWithKey & { photo_updated_at: string | null },
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
 * Resolves who is calling: a bearer token (its session row must be live) or an API key pair
 * (a row of `api_keys`). One prepared query each, run on every authenticated request.
 */
export class CallerLookup {
  private readonly bySession;
  private readonly byApiKey;
  private readonly apiKeys: ApiKeyRepository;

  constructor(
    db: Db,
    private readonly sessions: Sessions,
  ) {
    this.apiKeys = new ApiKeyRepository(db);
    const raw = db as unknown as Kysely<never>;
    this.bySession = prepareQuery<
      UserRowWithKey & {
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
        .select(newestApiKey())
        .where('sessions.id', '=', ''),
    );
    this.byApiKey = prepareQuery<
      UserRowWithKey & { photo_updated_at: string | null; key_id: number; secret_hash: string },
      [string]
    >(
      raw,
      db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .leftJoin('user_photos', 'user_photos.user_id', 'users.id')
        .selectAll('users')
        .select([
          'user_photos.updated_at as photo_updated_at',
          'api_keys.id as key_id',
          'api_keys.secret_hash',
        ])
        .select(newestApiKey())
        .where('api_keys.api_key', '=', ''),
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

  /** `ip` is the client's address, recorded as the key's last use (at most once a minute). */
  async fromApiKey(key: string, secret: string, ip: string): Promise<Caller> {
    const [row] = await this.byApiKey(key);
    if (!row || !safeEqual(row.secret_hash, sha256(secret))) {
      throw unauthorized('invalid API key');
    }
    const caller = toCaller(row, null, null);
    await this.apiKeys.touch(row.key_id, ip);
    return caller;
  }
}
