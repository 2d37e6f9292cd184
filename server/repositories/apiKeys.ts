import { randomBytes } from 'node:crypto';
import type { ApiKeyRecord } from '../../resources/user-security';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { type CallerChanges, callerChanges } from '../auth/callerCache';
import { sha256 } from '../auth/hash';

/** A user keeps at most this many keys: a stolen session cannot mint an unbounded supply. */
export const MAX_API_KEYS = 20;
/** A key's last use is written at most this often (a busy script costs no write per call). */
const TOUCH_EVERY_MS = 60_000;
/** Keys whose last touch is remembered in memory, so most calls skip even the guarded update. */
const TOUCHES_KEPT = 10_000;

/** A new key pair: the key names it, the secret proves it and is stored as its SHA-256 only. */
export function newApiKeyPair() {
  const api_key = `sdk_${randomBytes(16).toString('hex')}`;
  const api_secret = randomBytes(32).toString('base64url');
  return { api_key, api_secret, secret_hash: sha256(api_secret) };
}

const LISTED = ['id', 'api_key', 'label', 'created_at', 'last_used_at', 'last_used_ip'] as const;

/**
 * The account's API keys (table `api_keys`): the only place keys are read and written. Several
 * per user, each revocable; a password change or reset revokes them all. Every write but the
 * last-use stamp announces the user on `callerChanges`: cached callers drop at once.
 */
export class ApiKeyRepository {
  private readonly touched = new Map<number, number>();
  private readonly changes: CallerChanges;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {
    this.changes = callerChanges(db);
  }

  /** Mints a key; the secret is in the answer and nowhere else. */
  async create(userId: number, label: string) {
    const { api_key, api_secret, secret_hash } = newApiKeyPair();
    const row = await this.db
      .insertInto('api_keys')
      .values({
        user_id: userId,
        api_key,
        secret_hash,
        label,
        created_at: now(),
        last_used_at: null,
        last_used_ip: null,
      })
      .returning(['id', 'api_key', 'label', 'created_at'])
      .executeTakeFirstOrThrow();
    this.changes.user(userId); // the account's newest key is part of its record
    return { ...row, api_secret };
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Newest first. */
  async list(userId: number): Promise<ApiKeyRecord[]> {
    return this.db
      .selectFrom('api_keys')
      .select(LISTED)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Revokes one key of the user; false when the user has no such key. */
  async revoke(id: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('api_keys')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    this.touched.delete(id);
    this.changes.user(userId);
    return Number(result.numDeletedRows) === 1;
  }

  /** Revokes every key of the user (password change or reset); how many there were. */
  async revokeAll(userId: number): Promise<number> {
    const result = await this.db
      .deleteFrom('api_keys')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    this.changes.user(userId);
    return Number(result.numDeletedRows);
  }

  /**
   * Records a use of the key: time and client address, at most once a minute per key. The
   * memory check makes most calls free; the guarded update keeps several panels from writing
   * more often either.
   */
  async touch(id: number, ip: string): Promise<void> {
    const at = this.clock();
    const last = this.touched.get(id);
    if (last !== undefined && at - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= TOUCHES_KEPT) {
      this.touched.delete(this.touched.keys().next().value as number);
    }
    this.touched.set(id, at);
    const stamp = new Date(at).toISOString();
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: stamp, last_used_ip: ip.slice(0, 64) })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', new Date(at - TOUCH_EVERY_MS).toISOString()),
        ]),
      )
      .execute();
  }
}
