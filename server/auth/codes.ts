import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import type { CodePurpose } from '../db/schema';
import type { Clock } from './sessions';
import { hmac, safeEqual } from './hash';

const TTL_MINUTES = 15;
const MAX_ATTEMPTS = 5;

export interface IssuedCode {
  id: string;
  code: string;
}

/**
 * Six-digit codes sent by mail: account confirmation, sign-in, password reset. Stored as an HMAC,
 * valid for 15 minutes, 5 tries, used once; a new code voids the older ones of its kind.
 */
export class OneTimeCodes {
  constructor(
    private readonly db: Db,
    private readonly key: Uint8Array,
    private readonly clock: Clock = Date.now,
  ) {}

  private now(offsetMs = 0): string {
    return new Date(this.clock() + offsetMs).toISOString();
  }

  async issue(userId: number | null, purpose: CodePurpose): Promise<IssuedCode> {
    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const created = this.now();
    if (userId !== null) {
      await this.db
        .updateTable('one_time_codes')
        .set({ used_at: created })
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
    }
    await this.db
      .insertInto('one_time_codes')
      .values({
        id,
        user_id: userId,
        purpose,
        code_hash: hmac(this.key, `${id}:${code}`),
        attempts: 0,
        expires_at: this.now(TTL_MINUTES * 60_000),
        used_at: null,
        created_at: created,
      })
      .execute();
    return { id, code };
  }

  /** Checks the newest live code of a user and purpose; consumes it on success. */
  async consumeLatest(userId: number, purpose: CodePurpose, code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('one_time_codes')
      .select('id')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ? this.check(row.id, purpose, code, true) : false;
  }

  /** Checks a code by its request id; `consume` marks it used. Returns the user it belongs to. */
  async checkById(id: string, purpose: CodePurpose, code: string, consume: boolean) {
    const ok = await this.check(id, purpose, code, consume);
    if (!ok) return null;
    const row = await this.db
      .selectFrom('one_time_codes')
      .select('user_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  private async check(
    id: string,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
  ): Promise<boolean> {
    const row = await this.db
      .selectFrom('one_time_codes')
      .selectAll()
      .where('id', '=', id)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.used_at || row.expires_at < this.now() || row.attempts >= MAX_ATTEMPTS)
      return false;
    // Count the try before comparing, so parallel guesses cannot exceed the limit unseen.
    const counted = await this.db
      .updateTable('one_time_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', MAX_ATTEMPTS)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) return false;
    if (!safeEqual(row.code_hash, hmac(this.key, `${id}:${code}`))) return false;
    if (consume) {
      const used = await this.db
        .updateTable('one_time_codes')
        .set({ used_at: this.now() })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    }
    return true;
  }
}
