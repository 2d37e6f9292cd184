/**
 * The policies' actions on runs and files (spec s.7 Backups): back up now, restore, delete one
 * file, delete a policy with all its files; and a file's download (serverDownload.ts). server.ts
 * spreads `runActions` beside the policies' actions: a resource's routes come from one
 * `defineHandlers`.
 */
import type { FastifyInstance } from 'fastify';
import { AgentOfflineError, AgentOpError } from '../../server/agents/hub';
import { HttpError } from '../../server/http/errors';
import type { ActionHandlers } from '../../server/http/handlers';
import { policyScheduleName } from './jobNames';
import type { backupFiles, backups } from './resource';
import { downloadFile } from './serverDownload';
import { forgetSnapshots, policySnapshots } from './serverPanelRestic';
import { keepRestore, startRestore, toRestoreRecord } from './serverRestore';
import { manualKey, newRun, runJob, runUnderWay } from './serverRun';
import { type RunStore, existingStore } from './serverRunStore';
import type { BackupPolicyRow } from './serverTables';

const conflict = (words: string) => new HttpError(409, words);

/** Forgets snapshots where they are: by the panel on its storage, by the op elsewhere. */
async function forget(
  app: FastifyInstance,
  policy: BackupPolicyRow,
  store: RunStore,
  snapshots: readonly string[],
) {
  if (!snapshots.length) return;
  if (store.panel) return forgetSnapshots(store.panel, snapshots);
  try {
    for (let i = 0; i < snapshots.length; i += 1000)
      await app.agents.call(policy.server_id, 'backups.forget', {
        target: store.target,
        snapshots: snapshots.slice(i, i + 1000),
      });
  } catch (err) {
    if (err instanceof AgentOfflineError)
      throw conflict(`${err.message}: the files on that storage cannot be deleted now`);
    if (err instanceof AgentOpError) throw conflict(err.message);
    throw err;
  }
}

async function openStore(app: FastifyInstance, policy: BackupPolicyRow) {
  try {
    return await existingStore(app, policy);
  } catch (err) {
    throw conflict((err as Error).message);
  }
}

export const runActions: Pick<
  ActionHandlers<typeof backups>,
  'runNow' | 'restore' | 'keepRestore' | 'removeFile' | 'removeAll'
> = {
  /** A manual run: refused (409) while another run of the policy is queued or running. */
  async runNow(ctx) {
    const policy = ctx.loaded.bid;
    const busy = await runUnderWay(ctx.app, policy.id);
    if (busy) throw conflict(`A backup of ${policy.subject} is under way: wait for it to end`);
    const run = await newRun(ctx.app, policy, 'manual');
    await ctx.app.jobs.enqueue(
      runJob,
      { policy_id: policy.id, run_id: run.id },
      { key: manualKey(run.id) },
    );
    return { task_id: run.task_id!, file_id: run.id };
  },

  async restore(ctx) {
    return startRestore(ctx.app, ctx.uid, ctx.loaded.file_id, ctx.body);
  },

  /** The restore is kept: the previous copy it kept is removed on its server. */
  async keepRestore(ctx) {
    const row = await keepRestore(ctx.app, ctx.uid, ctx.child!, ctx.body.restore_id);
    return toRestoreRecord(row);
  },

  /** One file: its snapshot forgotten (the panel's storage by the panel), the row removed. */
  async removeFile(ctx) {
    const policy = ctx.loaded.sid;
    const file = ctx.loaded.file_id;
    if (file.backup_id !== policy.id) throw new HttpError(404, 'No such backup file');
    if (file.status === 'queued' || file.status === 'running')
      throw conflict('This backup is under way: wait for it to end');
    if (file.snapshot_id && !file.removed) {
      const store = await openStore(ctx.app, policy);
      if (store) await forget(ctx.app, policy, store, [file.snapshot_id]);
    }
    await ctx.app.db
      .updateTable('backup_runs')
      .set({ removed: 1 })
      .where('id', '=', file.id)
      .execute();
    return { id: file.id };
  },

  /** The policy: unscheduled, every snapshot it made forgotten, its rows deleted. */
  async removeAll(ctx) {
    const { app } = ctx;
    const policy = ctx.child!;
    if (await runUnderWay(app, policy.id))
      throw conflict(`A backup of ${policy.subject} is under way: wait for it to end`);
    const runs = await app.db
      .selectFrom('backup_runs')
      .select(['id', 'snapshot_id', 'removed'])
      .where('backup_id', '=', policy.id)
      .execute();
    const store = await openStore(app, policy);
    if (store) {
      const ids = new Set(
        runs.filter((r) => r.snapshot_id && !r.removed).map((r) => r.snapshot_id!),
      );
      // On the panel's storage, also what a lost run left behind (tagged with the policy).
      if (store.panel)
        for (const id of await policySnapshots(store.panel, policy.id).catch(() => []))
          if (![...ids].some((s) => id.startsWith(s))) ids.add(id);
      await forget(app, policy, store, [...ids]);
    }
    await app.db.transaction().execute(async (trx) => {
      await app.jobs.unschedule(policyScheduleName(policy.id), trx);
      await trx.deleteFrom('backup_runs').where('backup_id', '=', policy.id).execute();
      await trx.deleteFrom('backup_policies').where('id', '=', policy.id).execute();
    });
    return { id: policy.id, files: runs.filter((r) => r.snapshot_id && !r.removed).length };
  },
};

/** A file's download (`backup-files`: its only route). */
export const fileActions: ActionHandlers<typeof backupFiles> = {
  download: (ctx) => downloadFile(ctx.app, ctx.child!, ctx.reply),
};
