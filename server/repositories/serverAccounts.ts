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

  findUser(serverId: number, id: number) {
    return this.db
      .selectFrom('sysusers')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('id', '=', id)
      .where('user_name', '!=', 'root')
      .executeTakeFirst();
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

  listKeys(serverId: number, query: ListQuery) {
    return pageOf(
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
          'created_at',
        ])
        .where('server_id', '=', serverId),
      query,
      ['created_at', 'label'],
    );
  }

  findKey(serverId: number, id: number) {
    return this.db
      .selectFrom('pubkeys')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('id', '=', id)
      .executeTakeFirst();
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
    },
  ) {
    return this.db
      .insertInto('pubkeys')
      .values({ server_id: serverId, ...key, status: 'pending', error: null, created_at: now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  setKeyState(id: number, status: DesiredState, error: string | null = null) {
    return this.db
      .updateTable('pubkeys')
      .set({ status, error })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
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
