/**
 * The backup ops: an app's folder or a database into the repository (created when missing),
 * progress once a second in words, retention after a run that ended ok. restic's own failures
 * are the outcome (status failed, with words), never a thrown error: a run is recorded either way.
 */
import type { z } from 'zod';
import type { OpContext } from '../../agent/ops/types';
import type { ResticLimits, ResticTarget } from './agentRestic';
import type { BackupResult } from './agentResticBackup';
import type { BackupProgress } from './agentResticProgress';
import { appTags, backupFiles } from './agentBackupFiles';
import { backupDatabase, databaseTags } from './agentBackupDatabase';
import { ensureRepository, forgetAfter } from './agentRepoMaintenance';
import { inLane } from './agentResticLane';
import { appFolder, isFailed, systemUser } from './agentOpCommon';
import type { BackupOutcome, ops } from './resource';

type Args<N extends keyof typeof ops> = z.output<(typeof ops)[N]['args']>;

const count = (n: number) => n.toLocaleString('en-US');
/** MB, with a decimal below 10 (a small app's progress still moves). */
const mb = (n: number) => `${n < 1e7 ? (n / 1e6).toFixed(1) : count(Math.round(n / 1e6))} MB`;
const code = (percent: number) => Math.min(9, Math.max(0, Math.floor(percent / 10)));

/** "Backing up: 1,234 files, 56 MB of 120 MB". */
export const filesProgress = (p: BackupProgress) =>
  `Backing up: ${count(p.files_done)} files, ${mb(p.bytes_done)}${p.total_bytes > 0 ? ` of ${mb(p.total_bytes)}` : ''}`;
/** A dump's size is not known until it has ended: what went through so far. */
export const databaseProgress = (p: BackupProgress) =>
  `Backing up the database: ${mb(p.bytes_done)} dumped`;

const limitsOf = (a: { gentle: boolean; upload_limit_kib: number | null }): ResticLimits => ({
  gentle: a.gentle,
  ...(a.upload_limit_kib ? { upload_kib: a.upload_limit_kib } : {}),
});

/** The lib's end of a run as the op's answer. */
export function outcomeOf(result: BackupResult, started: number): BackupOutcome {
  const duration_ms = Date.now() - started;
  if (result.status === 'failed')
    return {
      status: 'failed',
      snapshot_id: null,
      files: null,
      size_bytes: null,
      added_bytes: null,
      duration_ms,
      error: { kind: result.error.kind, message: result.error.message },
      forgotten: [],
    };
  const s = result.summary;
  return {
    status: result.status,
    snapshot_id: s.snapshot_id,
    files: s.total_files_processed,
    size_bytes: s.total_bytes_processed,
    added_bytes: s.data_added,
    duration_ms,
    error: result.warning ? { kind: result.warning.kind, message: result.warning.message } : null,
    forgotten: [],
  };
}

/** Repository, run, retention: one lane for the whole op (the lib's own lanes nest in it). */
async function backup(
  target: ResticTarget,
  policy: { host: string; tags: string[]; retention: Args<'backups.files'>['retention'] },
  run: () => Promise<BackupResult>,
  ctx: OpContext,
): Promise<BackupOutcome> {
  const started = Date.now();
  return inLane(target, async () => {
    ctx.progress('Opening the backup storage', 0);
    const repo = await ensureRepository(target);
    if (isFailed(repo)) return outcomeOf(repo, started);
    const result = await run();
    const outcome = outcomeOf(result, started);
    if (result.status !== 'ok' || !policy.retention) return outcome;
    ctx.progress('Removing old backups (retention)', 9);
    const forgot = await forgetAfter(target, result, {
      host: policy.host,
      tags: policy.tags,
      keep: policy.retention,
    });
    if (isFailed(forgot))
      // The snapshot is saved: the run is ok, the retention is tried again after the next one.
      return {
        ...outcome,
        error: {
          kind: forgot.error.kind,
          message: `The backup was saved, but old backups could not be removed: ${forgot.error.message}`,
        },
      };
    return {
      ...outcome,
      duration_ms: Date.now() - started,
      // Short ids, as the run's own snapshot_id (restic's summary gives the short one).
      forgotten: forgot.removed.map((id) => id.slice(0, 8)),
    };
  });
}

export async function filesOp(a: Args<'backups.files'>, ctx: OpContext): Promise<BackupOutcome> {
  const user = await systemUser(a.sys_user);
  const root = await appFolder(user, a.app);
  const extra = [`policy:${a.policy_id}`];
  return backup(
    a.target,
    { host: a.host, tags: appTags(String(a.app_id), extra), retention: a.retention },
    () =>
      backupFiles(
        a.target,
        { app_id: String(a.app_id), root, host: a.host, excludes: a.excludes, tags: extra },
        {
          allowedRoots: [user.home],
          limits: limitsOf(a),
          onProgress: (p) => ctx.progress(filesProgress(p), code(p.percent)),
        },
      ),
    ctx,
  );
}

export async function databaseOp(
  a: Args<'backups.database'>,
  ctx: OpContext,
): Promise<BackupOutcome> {
  const extra = [`policy:${a.policy_id}`];
  return backup(
    a.target,
    { host: a.host, tags: databaseTags(String(a.db_id), extra), retention: a.retention },
    () =>
      backupDatabase(
        a.target,
        { db_id: String(a.db_id), database: a.database, host: a.host, tags: extra },
        {
          limits: limitsOf(a),
          onProgress: (p) => ctx.progress(databaseProgress(p), code(p.percent)),
        },
      ),
    ctx,
  );
}
