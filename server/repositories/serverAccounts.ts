import { sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Db } from '../db/database';
import { now } from '../db/database';
import type { DesiredState } from '../db/schema';
import { pageOf } from './paging';

/** System users and SSH keys as the panel wants them on a server: written first, then applied. */
export class ServerAccountsRepository {
  constructor(private readonly db: Db) {}

  listUsers(serverId: number, query: ListQuery) {
    return pageOf(
      this.db
        .selectFrom('sysusers')
        .select(['id', 'user_name', 'quota_hard', 'quota_soft', 'status', 'error', 'created_at'])
        .where('server_id', '=', serverId)
        // root is recorded (its password is set on first opening) but never listed.
        .where('user_name', '!=', 'root'),
      query,
      ['created_at', 'user_name'],
    );
  }

  findUserByName(serverId: number, userName: string) {
    return this.db
      .selectFrom('sysusers')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('user_name', '=', userName)
      .executeTakeFirst();
  }

  async hasUsers(serverId: number): Promise<boolean> {
    return Boolean(
      await this.db
        .selectFrom('sysusers')
        .select('id')
        .where('server_id', '=', serverId)
        .limit(1)
        .executeTakeFirst(),
    );
  }

  addUser(serverId: number, user: { user_name: string; quota_hard: number; quota_soft: number }) {
    const stamp = now();
    return this.db
      .insertInto('sysusers')
      .values({
        server_id: serverId,
        ...user,
        status: 'pending',
        error: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  setUserState(id: number, status: DesiredState, error: string | null = null) {
    return this.db
      .updateTable('sysusers')
      .set({ status, error, updated_at: now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async deleteUser(id: number) {
    await this.db.deleteFrom('sysusers').where('id', '=', id).execute();
    // Keys of a deleted user went with its home.
  }

  /**
   * A page of the server's keys with who added each (`ownerId`, the server's owner, for the
   * keys from before the panel recorded it).
   */
  async listKeys(serverId: number, ownerId: number, query: ListQuery) {
    const page = await pageOf(
      this.db
        .selectFrom('pubkeys')
        .select([
          'id',
          'user_name',
          'label',
          'type',
          'fingerprint',
          'status',
          'error',
          'added_by',
          'created_at',
        ])
        .where('server_id', '=', serverId),
      query,
      ['created_at', 'label'],
    );
    return { total: page.total, data: await this.withAdders(page.data, ownerId) };
  }

  /** A key as the API shows it, with who added it (`ownerId` for keys from before). */
  async keyRecord<T extends { added_by: number | null }>(row: T, ownerId: number) {
    return (await this.withAdders([row], ownerId))[0]!;
  }

  /**
   * A key this request wrote, read again (its state may have moved on meanwhile): by the row,
   * never by a bare id. Nothing when it has gone.
   */
  reloadKey(row: { id: number; server_id: number }) {
    return this.db
      .selectFrom('pubkeys')
      .selectAll()
      .where('id', '=', row.id)
      .where('server_id', '=', row.server_id)
      .executeTakeFirst();
  }

  /** `added_by` as the panel user (id, name, email); null when their account is gone. */
  private async withAdders<T extends { added_by: number | null }>(rows: T[], ownerId: number) {
    const ids = [...new Set(rows.map((row) => row.added_by ?? ownerId))];
    const adders = ids.length
      ? await this.db
          .selectFrom('users')
          .select(['id', 'user_name', 'email'])
          .where('id', 'in', ids)
          .execute()
      : [];
    return rows.map((row) => ({
      ...row,
      added_by: adders.find((u) => u.id === (row.added_by ?? ownerId)) ?? null,
    }));
  }

  findKeyByFingerprint(serverId: number, userName: string, fingerprint: string) {
    return this.db
      .selectFrom('pubkeys')
      .select('id')
      .where('server_id', '=', serverId)
      .where('user_name', '=', userName)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
  }

  addKey(
    serverId: number,
    key: {
      user_name: string;
      label: string;
      type: string;
      fingerprint: string;
      public_key: string;
      /** The panel user whose access to the server the key comes through (none: the owner). */
      added_by?: number | null;
    },
  ) {
    return this.db
      .insertInto('pubkeys')
      .values({ server_id: serverId, ...key, status: 'pending', error: null, created_at: now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Settles a pending key; a key marked for removal meanwhile stays so. */
  async setKeyState(id: number, status: DesiredState, error: string | null = null) {
    await this.db
      .updateTable('pubkeys')
      .set({ status, error })
      .where('id', '=', id)
      .where('status', '!=', 'removing')
      .execute();
  }

  /**
   * The server's keys that must go: those marked for removal, and those whose adder no longer
   * reaches the server (neither owns it nor is a member of a team of its owner's that it is
   * shared with: the tenant rule of ServerRepository.findAccessible). Keys without an adder
   * are the owner's from before the panel recorded it.
   */
  keysToRevoke(serverId: number) {
    return this.db
      .selectFrom('pubkeys')
      .innerJoin('servers', 'servers.id', 'pubkeys.server_id')
      .leftJoin('users', 'users.id', 'pubkeys.added_by')
      .select([
        'pubkeys.id',
        'pubkeys.user_name',
        'pubkeys.label',
        'pubkeys.fingerprint',
        'pubkeys.status',
        'pubkeys.added_by',
        'servers.user_id as owner_id',
        'users.email as adder_email',
      ])
      .where('pubkeys.server_id', '=', serverId)
      .where((eb) =>
        eb.or([
          eb('pubkeys.status', '=', 'removing'),
          eb.and([
            eb('pubkeys.added_by', 'is not', null),
            eb('pubkeys.added_by', '!=', eb.ref('servers.user_id')),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('team_servers')
                  .innerJoin('teams', 'teams.id', 'team_servers.team_id')
                  .innerJoin('team_members', 'team_members.team_id', 'teams.id')
                  .select(sql<number>`1`.as('one'))
                  .whereRef('team_servers.server_id', '=', 'pubkeys.server_id')
                  .whereRef('teams.owner_id', '=', 'servers.user_id')
                  .whereRef('team_members.user_id', '=', 'pubkeys.added_by'),
              ),
            ),
          ]),
        ]),
      )
      .orderBy('pubkeys.id')
      .execute();
  }

  /** Marks a key for removal from the server, with why it is still there (if it is). */
  async markRemoving(id: number, error: string | null) {
    await this.db
      .updateTable('pubkeys')
      .set({ status: 'removing', error: error?.slice(0, 2000) ?? null })
      .where('id', '=', id)
      .execute();
  }

  async deleteKey(id: number) {
    await this.db.deleteFrom('pubkeys').where('id', '=', id).execute();
  }

  async deleteKeysOf(serverId: number, userName: string) {
    await this.db
      .deleteFrom('pubkeys')
      .where('server_id', '=', serverId)
      .where('user_name', '=', userName)
      .execute();
  }
}
