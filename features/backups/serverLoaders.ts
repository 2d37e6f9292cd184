import type { Db } from '../../server/db/database';
import { visibleServerIds } from '../../server/repositories/servers';
import type { BackupPolicyRow, BackupRunRow, BackupTargetRow } from './serverTables';

/**
 * The one lookup by id of each backup row, through the `{uid}` user (the feature's
 * `accountChildren`): a policy of a server the user reaches (owned or through a team), or their
 * own policy of a server removed since (its files stay restorable); a file (run) of such a
 * policy; a storage target of the user's own. Another user's id finds nothing, like a missing one.
 */

/** The policies `uid` reaches (see above), as a query to narrow further. */
export function reachablePolicies(db: Db, uid: number) {
  return db
    .selectFrom('backup_policies')
    .selectAll('backup_policies')
    .where((eb) =>
      eb.or([
        eb('backup_policies.server_id', 'in', visibleServerIds(db, uid)),
        eb.and([
          eb('backup_policies.user_id', '=', uid),
          eb.not(
            eb.exists(
              eb
                .selectFrom('servers')
                .select('servers.id')
                .whereRef('servers.id', '=', 'backup_policies.server_id'),
            ),
          ),
        ]),
      ]),
    );
}

/** `{backupId}`, `?bid=`, `?sid=`: the policy, or undefined. */
export function findPolicy(
  db: Db,
  uid: number,
  id: number | string,
): Promise<BackupPolicyRow | undefined> {
  return reachablePolicies(db, uid).where('backup_policies.id', '=', Number(id)).executeTakeFirst();
}

/** A file (run) with the policy it belongs to. */
export type BackupFileRow = BackupRunRow & { policy: BackupPolicyRow };

/** `{fileId}`, `file_id`: a run of a policy `uid` reaches, with that policy, or undefined. */
export async function findFile(
  db: Db,
  uid: number,
  id: number | string,
): Promise<BackupFileRow | undefined> {
  const run = await db
    .selectFrom('backup_runs')
    .selectAll()
    .where('id', '=', Number(id))
    .executeTakeFirst();
  if (!run) return undefined;
  const policy = await findPolicy(db, uid, run.backup_id);
  return policy && { ...run, policy };
}

/** `target_id`: a storage target of the user's own (never a team's: it holds their keys). */
export function findTarget(
  db: Db,
  uid: number,
  id: number | string,
): Promise<BackupTargetRow | undefined> {
  return db
    .selectFrom('backup_targets')
    .selectAll()
    .where('user_id', '=', uid)
    .where('id', '=', Number(id))
    .executeTakeFirst();
}

declare module '../../server/http/children' {
  // `ctx.child` / `ctx.loaded` of the backups' routes (loaded through `{uid}`).
  interface FeatureChildRows {
    backups: BackupPolicyRow;
    'backup-files': BackupFileRow;
    'backup-targets': BackupTargetRow;
  }
}

export const backupsAccountChildren = {
  backups: findPolicy,
  'backup-files': findFile,
  'backup-targets': findTarget,
};
