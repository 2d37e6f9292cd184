/**
 * A `restic backup` run read to its end: progress as it goes, then `ok` (exit 0 and a summary),
 * `partial` (exit 3: a snapshot without the files it could not read) or `failed` with its cause.
 * Shared by the files and the database backups.
 */
import { type ResticLimits, type ResticRun, type ResticTarget, startRestic } from './agentRestic';
import { type Failed, type Failure, classifyExit, failed } from './agentResticErrors';
import {
  type BackupProgress,
  type BackupSummary,
  type Unreadable,
  BackupReader,
} from './agentResticProgress';

export interface BackupDone {
  status: 'ok' | 'partial';
  summary: BackupSummary;
  /** Why a partial run is partial (kind `partial`); null when ok. */
  warning: Failure | null;
  unreadable: Unreadable[];
}

export type BackupResult = BackupDone | Failed;

/** What a caller may set on a run (the op passes the job's own). */
export interface RunControls {
  limits?: ResticLimits;
  /** Called at most once a second while restic reads. */
  onProgress?: (p: BackupProgress) => void;
  /** Stops the run: restic ends without a snapshot. */
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
}

export function startBackup(
  target: ResticTarget,
  args: readonly string[],
  options: RunControls & { cwd?: string; stdin?: boolean },
): { run: ResticRun; result: Promise<BackupResult> } {
  const reader = new BackupReader(options.onProgress);
  const run = startRestic(target, 'backup', args, {
    cwd: options.cwd,
    stdin: options.stdin,
    limits: options.limits,
    signal: options.signal,
    onSpawn: options.onSpawn,
    onLine: (line) => reader.line(line),
    onErrorLine: (line) => reader.errorLine(line),
  });
  const result = run.exit.then((ended): BackupResult => {
    const problem = classifyExit(ended, reader.unreadable);
    const summary = reader.summary;
    if (summary && (problem === null || problem.kind === 'partial'))
      return {
        status: problem ? 'partial' : 'ok',
        summary,
        warning: problem,
        unreadable: reader.unreadable,
      };
    if (problem && problem.kind !== 'partial') return { status: 'failed', error: problem };
    return failed('failed', 'The backup program ended without writing a snapshot.', ended.stderr);
  });
  return { run, result };
}
