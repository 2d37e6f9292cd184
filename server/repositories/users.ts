import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { User, UserUpdate } from '../../resources/user-profile';
import type { ListQuery } from '../../resources/define';
import { type CallerChanges, callerChanges } from '../auth/callerCache';
import type { Db } from '../db/database';
import { now, toCount } from '../db/database';
import type { UserPatch, UserRow } from '../db/schema';
import { ApiKeyRepository } from './apiKeys';
import { containsText, pageOf } from './paging';

/** API field (spec spelling) -> column. */
const PROFILE_COLUMNS = {
  user_name: 'user_name',
  Addr_1: 'addr_1',
  Addr_2: 'addr_2',
  City: 'city',
  CompanyName: 'company_name',
  Country: 'country',
  PostalCode: 'postal_code',
  State: 'state',
  TaxNum: 'tax_num',
  TimeZone: 'time_zone',
} as const satisfies Partial<Record<keyof UserUpdate, keyof UserRow>>;

/**
 * A user row as the caller lookup and `record()` read it: with the newest API key of the
 * account (table `api_keys`; the old `users.api_key` column is no longer read).
 */
export type UserRowWithKey = UserRow & { newest_api_key?: string | null };

export function toUserRecord(row: UserRowWithKey, photoUpdatedAt: string | null): User {
  return {
    id: row.id,
    uuid: row.uuid,
    email: row.email,
    user_name: row.user_name,
    is_admin: Boolean(row.is_admin),
    is_admin_staff: Boolean(row.is_admin_staff),
    plan_id: row.plan_id,
    photo: photoUpdatedAt
      ? `/api/v1/images/users/${row.id}?v=${encodeURIComponent(photoUpdatedAt)}`
      : null,
    api_key: row.newest_api_key ?? null,
    two_factor: Boolean(row.two_factor),
    two_factor_method: row.two_factor ? row.two_factor_method : null,
    confirmed: Boolean(row.confirmed),
    disabled: Boolean(row.disabled),
    LoginNotif: Boolean(row.login_notif),
    Addr_1: row.addr_1 ?? '',
    Addr_2: row.addr_2 ?? '',
    City: row.city ?? '',
    CompanyName: row.company_name ?? '',
    Country: row.country ?? '',
    PostalCode: row.postal_code ?? '',
    State: row.state ?? '',
    TaxNum: row.tax_num ?? '',
    TimeZone: row.time_zone ?? '',
    created_at: row.created_at,
  };
}

/** Column changes for the profile part of an update; the rest of UserUpdate is handled apart. */
export function profilePatch(update: UserUpdate): UserPatch {
  const patch: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(PROFILE_COLUMNS)) {
    const value = update[field as keyof typeof PROFILE_COLUMNS];
    if (value !== undefined) patch[column] = value === '' && field !== 'user_name' ? null : value;
  }
  if (update.LoginNotif !== undefined) patch.login_notif = update.LoginNotif ? 1 : 0;
  return patch as UserPatch;
}

export interface NewAccount {
  email: string;
  user_name: string;
  password_hash: string;
  is_admin?: boolean;
  confirmed?: boolean;
  referrer_id?: number | null;
}

/**
 * The newest API key of `users.id`, as a column of a query on users. Plain SQL without
 * parameters, so prepared queries (server/db/prepared.ts) keep theirs in order.
 */
export const newestApiKey = () =>
  sql<
    string | null
  >`(select api_key from api_keys where api_keys.user_id = users.id order by api_keys.id desc limit 1)`.as(
    'newest_api_key',
  );

/**
 * Every write to `users` and `user_photos` goes through here and announces the user on
 * `callerChanges` once it is committed: cached callers (server/auth/callerCache.ts) drop at once.
 */
export class UserRepository {
  /** The account's API keys. */
  readonly apiKeys: ApiKeyRepository;
  private readonly changes: CallerChanges;

  constructor(private readonly db: Db) {
    this.apiKeys = new ApiKeyRepository(db);
    this.changes = callerChanges(db);
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }

  findByUuid(uuid: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  async create(account: NewAccount): Promise<UserRow> {
    const stamp = now();
    return this.db
      .insertInto('users')
      .values({
        uuid: randomUUID(),
        email: account.email.trim().toLowerCase(),
        user_name: account.user_name,
        password_hash: account.password_hash,
        is_admin: account.is_admin ? 1 : 0,
        is_admin_staff: 0,
        plan_id: 1,
        api_key: null,
        api_secret_hash: null,
        two_factor: 0,
        two_factor_method: null,
        totp_secret: null,
        totp_pending_secret: null,
        totp_last_step: null,
        login_notif: 0,
        confirmed: account.confirmed ? 1 : 0,
        disabled: 0,
        referrer_id: account.referrer_id ?? null,
        addr_1: null,
        addr_2: null,
        city: null,
        company_name: null,
        country: null,
        postal_code: null,
        state: null,
        tax_num: null,
        time_zone: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * A new password (any path: change, reset, CLI) revokes every API key of the account in the
   * same transaction: a key minted with a stolen session does not outlive the owner's reaction.
   */
  async update(id: number, patch: UserPatch): Promise<UserRow> {
    const write = (db: Db) =>
      db
        .updateTable('users')
        .set({ ...patch, updated_at: now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    try {
      if (patch.password_hash === undefined) return await write(this.db);
      return await this.db.transaction().execute(async (trx) => {
        const row = await write(trx);
        await trx.deleteFrom('api_keys').where('user_id', '=', id).execute();
        return row;
      });
    } finally {
      this.changes.user(id);
    }
  }

  /** Sets the TOTP step only if it moves forward: the atomic check that makes a code single-use. */
  async advanceTotpStep(id: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    this.changes.user(id);
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: number): Promise<void> {
    try {
      await this.db.deleteFrom('users').where('id', '=', id).execute();
    } finally {
      this.changes.user(id);
    }
  }

  async photoUpdatedAt(id: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('user_photos')
      .select('updated_at')
      .where('user_id', '=', id)
      .executeTakeFirst();
    return row?.updated_at ?? null;
  }

  async photo(id: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('user_photos')
      .select('data')
      .where('user_id', '=', id)
      .executeTakeFirst();
    return row?.data ?? null;
  }

  async setPhoto(id: number, data: string | null): Promise<void> {
    try {
      if (data === null) {
        await this.db.deleteFrom('user_photos').where('user_id', '=', id).execute();
        return;
      }
      const stamp = now();
      await this.db
        .insertInto('user_photos')
        .values({ user_id: id, data, updated_at: stamp })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: stamp }))
        .execute();
    } finally {
      this.changes.user(id);
    }
  }

  /** The API record: the user and the photo's version in one query. */
  async record(id: number): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .leftJoin('user_photos', 'user_photos.user_id', 'users.id')
      .selectAll('users')
      .select('user_photos.updated_at as photo_updated_at')
      .select(newestApiKey())
      .where('users.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { photo_updated_at, ...user } = row;
    return toUserRecord(user, photo_updated_at ?? null);
  }

  list(query: ListQuery & { q?: string }) {
    let select = this.db
      .selectFrom('users')
      .select([
        'id',
        'uuid',
        'email',
        'user_name',
        'is_admin',
        'is_admin_staff',
        'plan_id',
        'confirmed',
        'disabled',
        'created_at',
      ]);
    if (query.q) {
      const q = query.q;
      select = select.where((eb) =>
        eb.or([containsText('email', q), containsText('user_name', q)]),
      );
    }
    return pageOf(select, query, ['created_at', 'email', 'user_name', 'id']);
  }

  async count(
    filter: { admins?: boolean; confirmed?: boolean; since?: string } = {},
  ): Promise<number> {
    let q = this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'));
    if (filter.admins) q = q.where('is_admin', '=', 1);
    if (filter.confirmed) q = q.where('confirmed', '=', 1);
    if (filter.since) q = q.where('created_at', '>=', filter.since);
    return toCount((await q.executeTakeFirst())?.n);
  }
}
