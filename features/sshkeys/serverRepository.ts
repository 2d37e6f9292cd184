import { sql } from 'kysely';
import type { Db } from '../../server/db/database';

/**
 * Lookups of system users and SSH keys beyond the managed store (server/managed/store.ts, which
 * writes them): names and fingerprints in use, who added a key, the keys to revoke.
 */
export class ServerAccountsRepository {
  constructor(private readonly db: Db) {}

  findUserByName(serverId: number, userName: string) {
    return this.db
      .selectFrom('sysusers')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('user_name', '=', userName)
      .executeTakeFirst();
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
  async withAdders<T extends { added_by: number | null }>(rows: T[], ownerId: number) {
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
}
