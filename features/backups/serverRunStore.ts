/**
 * What the runs, restores and checks need of a policy's repository: the op's `target`
 * (serverStores.ts) and, on the panel's own storage, the local path and password the panel runs
 * restic with itself; and the runs retention or a removal forgot, marked removed.
 */
import type { FastifyInstance } from 'fastify';
import type { PanelRepo } from './serverPanelRestic';
import { type OpTarget, findStore, targetFor, targetOfStore, targetRow } from './serverStores';
import type { BackupPolicyRow, BackupStoreRow } from './serverTables';

export const now = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

export interface RunStore {
  store: BackupStoreRow;
  target: OpTarget;
  /** The panel's storage: where the panel runs restic itself; null on S3 and SFTP. */
  panel: PanelRepo | null;
}

/** The panel's own repository of a store, or null (S3, SFTP). */
export function panelRepo(app: FastifyInstance, store: BackupStoreRow): PanelRepo | null {
  if (store.target_id !== null || !store.repository_uuid) return null;
  return {
    path: app.services.backupRepositories.localPath(store.repository_uuid),
    password: app.services.box.open(store.password),
  };
}

/** The store of a policy's server and target, made on first use (a run). */
export async function storeOf(
  app: FastifyInstance,
  serverId: number,
  targetId: number | null,
  userId: number,
): Promise<RunStore> {
  const server = await app.services.servers.findById(serverId);
  const target = await targetRow(app, targetId);
  if (!server) {
    // A removed server's files stay: its store still opens (restore elsewhere, download).
    const store = await findStore(app, serverId, targetId);
    if (!store) throw new Error('This backup has no storage');
    return { store, target: await targetOfStore(app, store, target), panel: panelRepo(app, store) };
  }
  const made = await targetFor(app, { id: server.id, uuid: server.uuid, user_id: userId }, target);
  return { ...made, panel: panelRepo(app, made.store) };
}

/** The store a policy's files are in (never made here: no run, no files). */
export async function existingStore(
  app: FastifyInstance,
  policy: Pick<BackupPolicyRow, 'server_id' | 'target_id'>,
): Promise<RunStore | null> {
  const store = await findStore(app, policy.server_id, policy.target_id);
  if (!store) return null;
  const target = await targetRow(app, policy.target_id);
  return { store, target: await targetOfStore(app, store, target), panel: panelRepo(app, store) };
}

/** Marks the runs of these snapshots removed (ids full or short, either way round). */
export async function markForgotten(
  app: FastifyInstance,
  policyId: number,
  snapshots: readonly string[],
): Promise<number[]> {
  if (!snapshots.length) return [];
  const runs = await app.db
    .selectFrom('backup_runs')
    .select(['id', 'snapshot_id'])
    .where('backup_id', '=', policyId)
    .where('removed', '=', 0)
    .where('snapshot_id', 'is not', null)
    .execute();
  const gone = runs
    .filter((r) =>
      snapshots.some((s) => s.startsWith(r.snapshot_id!) || r.snapshot_id!.startsWith(s)),
    )
    .map((r) => r.id);
  if (gone.length)
    await app.db.updateTable('backup_runs').set({ removed: 1 }).where('id', 'in', gone).execute();
  return gone;
}
