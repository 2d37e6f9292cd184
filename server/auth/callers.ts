import type { Db } from '../db/database';
import { prepareQuery } from '../db/prepared';
import type { Caller } from '../http/caller';
import { unauthorized } from '../http/errors';
import { ApiKeyRepository } from '../repositories/apiKeys';
import { type UserRowWithKey, newestApiKey } from '../repositories/users';
import { CallerCache, callerChanges } from './callerCache';
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

interface Resolved {
  caller: Caller;
  /** API-key entries: the key's row id and the SHA-256 of its secret, compared on every call. */
  keyId?: number;
  secretHash?: string;
}

/**
 * Resolves who is calling: a bearer token (its session row must be live) or an API key pair
 * (a row of `api_keys`). One prepared query each, kept in a CallerCache: a request whose
 * session, user and keys did not change reads nothing (see callerCache.ts for what drops an
 * entry and how stale one can be).
 */
export class CallerLookup {
  private readonly bySession;
  private readonly byApiKey;
  private readonly apiKeys: ApiKeyRepository;
  /** Keys are `s:<session id>` and `k:<api key>`. */
  readonly cache = new CallerCache<Resolved>();

  constructor(
    db: Db,
    private readonly sessions: Sessions,
  ) {
    this.apiKeys = new ApiKeyRepository(db);
    sessions.onRevoke((ids) => {
      for (const id of ids) this.cache.delete(`s:${id}`);
    });
    callerChanges(db).listen((userId) => this.cache.deleteUser(userId));
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
      db,
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
      UserRowWithKey & {
        photo_updated_at: string | null;
        key_id: number;
        secret_hash: string;
        key_label: string;
      },
      [string]
    >(
      db,
      db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .leftJoin('user_photos', 'user_photos.user_id', 'users.id')
        .selectAll('users')
        .select([
          'user_photos.updated_at as photo_updated_at',
          'api_keys.id as key_id',
          'api_keys.secret_hash',
          'api_keys.label as key_label',
        ])
        .select(newestApiKey())
        .where('api_keys.api_key', '=', ''),
    );
  }

  async fromToken(token: string): Promise<Caller> {
    const claims = await this.sessions.verify(token);
    const key = `s:${claims.sessionId}`;
    const known = this.cache.get(key)?.caller;
    if (known) {
      if (known.id !== claims.userId || known.actorId !== claims.actorId) {
        throw unauthorized('invalid token');
      }
      return known;
    }
    const generation = this.cache.generation();
    const [row] = await this.bySession(claims.sessionId);
    if (!row || row.id !== claims.userId || row.revoked_at) throw unauthorized('token revoked');
    const actorId = row.session_actor_id;
    if (actorId !== claims.actorId) throw unauthorized('invalid token');
    // An impersonation token lives only as long as its admin is still an enabled admin.
    if (actorId !== null && (!row.actor_is_admin || row.actor_disabled)) {
      throw unauthorized('token revoked');
    }
    const caller = toCaller(row, claims.sessionId, actorId);
    this.cache.set(key, { caller }, { userId: row.id, actorId }, generation);
    return caller;
  }

  /** `ip` is the client's address, recorded as the key's last use (at most once a minute). */
  async fromApiKey(key: string, secret: string, ip: string): Promise<Caller> {
    const cacheKey = `k:${key}`;
    const hash = sha256(secret);
    // The secret is checked on every call, cached or not, in constant time.
    let known = this.cache.get(cacheKey);
    if (known) {
      if (!safeEqual(known.secretHash!, hash)) throw unauthorized('invalid API key');
    } else {
      const generation = this.cache.generation();
      const [row] = await this.byApiKey(key);
      if (!row || !safeEqual(row.secret_hash, hash)) throw unauthorized('invalid API key');
      const caller = { ...toCaller(row, null, null), apiKeyLabel: row.key_label };
      known = { caller, keyId: row.key_id, secretHash: row.secret_hash };
      this.cache.set(cacheKey, known, { userId: row.id, actorId: null }, generation);
    }
    await this.apiKeys.touch(known.keyId!, ip);
    return known.caller;
  }
}
