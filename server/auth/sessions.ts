import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/database';
import { now } from '../db/database';

/** Verified tokens kept in memory (about 1 KB each). */
const VERIFIED_TOKENS_KEPT = 10_000;

export class TokenExpiredError extends Error {}
export class TokenInvalidError extends Error {}

export interface TokenClaims {
  userId: number;
  sessionId: string;
  /** The admin acting as this user (RFC 8693 `act`), if any. */
  actorId: number | null;
}

/** Milliseconds since the epoch; injectable so expiry can be tested without waiting. */
export type Clock = () => number;

export interface SessionOrigin {
  ip: string;
  userAgent: string;
}

/** Told the ids of sessions just revoked (live sockets of those sessions close). */
export type RevokeListener = (sessionIds: string[]) => void | Promise<void>;

/**
 * Bearer tokens are JWTs naming a session row; revoking the row (logout, password change)
 * revokes the token even before it expires. Every revocation goes through `revoke` or
 * `revokeAll`, which tell the listeners: the live sockets of a revoked session close at once.
 */
export class Sessions {
  private readonly listeners: RevokeListener[] = [];

  /** Called with the ids of every batch of sessions revoked from now on. */
  onRevoke(listener: RevokeListener): void {
    this.listeners.push(listener);
  }

  private async revoked(ids: string[]) {
    if (!ids.length) return;
    for (const listener of this.listeners) await listener(ids);
  }

  constructor(
    private readonly db: Db,
    private readonly key: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly clock: Clock = Date.now,
  ) {}

  async issue(
    userId: number,
    origin: SessionOrigin,
    actorId: number | null = null,
  ): Promise<string> {
    const id = randomUUID();
    const issuedAt = Math.floor(this.clock() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    await this.db
      .insertInto('sessions')
      .values({
        id,
        user_id: userId,
        actor_id: actorId,
        ip: origin.ip.slice(0, 64),
        user_agent: origin.userAgent.slice(0, 512),
        created_at: new Date(issuedAt * 1000).toISOString(),
        expires_at: new Date(expiresAt * 1000).toISOString(),
        revoked_at: null,
      })
      .execute();
    const jwt = new SignJWT(actorId ? { act: { sub: String(actorId) } } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setJti(id)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt);
    return jwt.sign(this.key);
  }

  /**
   * Checks signature and expiry. A token that verified once is remembered until it expires:
   * jose's HMAC runs on the thread pool and cost ~180 µs a request (measured), a lookup here
   * costs nothing. Revocation is checked by CallerLookup, whose cached callers drop on the revoke
   * listeners' call (server/auth/callerCache.ts).
   */
  async verify(token: string): Promise<TokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > this.clock()) return known.claims;
      this.verified.delete(token);
      throw new TokenExpiredError('token expired');
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock()),
      });
      const act = payload.act as { sub?: string } | undefined;
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || !payload.jti || !payload.exp) {
        throw new TokenInvalidError('invalid token');
      }
      const claims = { userId, sessionId: payload.jti, actorId: act?.sub ? Number(act.sub) : null };
      this.remember(token, claims, payload.exp * 1000);
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new TokenExpiredError('token expired');
      if (error instanceof TokenInvalidError) throw error;
      throw new TokenInvalidError('invalid token');
    }
  }

  private readonly verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();

  private remember(token: string, claims: TokenClaims, expiresAt: number) {
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) {
      this.verified.delete(this.verified.keys().next().value as string);
    }
    this.verified.set(token, { claims, expiresAt });
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
    // Told even when the row was already revoked: a socket that slipped in meanwhile closes too.
    await this.revoked([sessionId]);
  }

  /** True when the session is unknown or revoked (a live socket checks once it is in its room). */
  async isRevoked(sessionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    return !row || row.revoked_at !== null;
  }

  /**
   * Every earlier token of the user, and every impersonation token the user holds as an admin
   * (password change or reset, disabled account). `except` keeps the session making the change.
   */
  async revokeAll(userId: number, options: { except?: string | null } = {}): Promise<number> {
    let update = this.db
      .updateTable('sessions')
      .set({ revoked_at: now() })
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('actor_id', '=', userId)]))
      .where('revoked_at', 'is', null);
    if (options.except) update = update.where('id', '!=', options.except);
    const rows = await update.returning('id').execute();
    await this.revoked(rows.map((r) => r.id));
    return rows.length;
  }

  /** The user's sessions that are neither revoked nor expired, newest first. */
  async active(userId: number) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'actor_id', 'ip', 'user_agent', 'created_at', 'expires_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(this.clock()).toISOString())
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Revokes one live session of the user; false when it is not theirs, revoked or expired. */
  async revokeOf(userId: number, sessionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(this.clock()).toISOString())
      .executeTakeFirst();
    if (!row) return false;
    await this.revoke(row.id);
    return true;
  }
}
