/**
 * The repository's upkeep: created when missing (format 2: compressed), stale locks removed with
 * plain `restic unlock` (only locks whose process is gone or that are 30 minutes old: never
 * `--remove-all`, which would break a live run), old snapshots forgotten after a successful
 * backup only, and the repository checked (a part of the data read on a rotation).
 */
import { z } from 'zod';
import { type ResticTarget, restic } from './agentRestic';
import type { BackupDone } from './agentResticBackup';
import { type Failed, classifyExit, failed } from './agentResticErrors';
import { checked, hostSchema, tagSchema } from './agentResticInput';
import { inLane } from './agentResticLane';

export interface Done {
  status: 'ok';
}
const OK: Done = { status: 'ok' };

/** An exit as Done or its failure. */
function outcome(ended: { code: number | null; signal: NodeJS.Signals | null; stderr: string }) {
  const problem = classifyExit(ended);
  return problem ? ({ status: 'failed', error: problem } satisfies Failed) : OK;
}

/** Opens the repository, and creates it when there is none (never over another failure). */
export function ensureRepository(
  target: ResticTarget,
): Promise<(Done & { created: boolean }) | Failed> {
  return inLane(target, async () => {
    const open = await restic(target, 'cat', ['config']);
    if (open.code === 0) return { status: 'ok', created: false };
    const problem = classifyExit(open);
    if (problem?.kind !== 'no_repository') return { status: 'failed', error: problem! };
    const init = outcome(await restic(target, 'init', ['--repository-version', '2']));
    return init.status === 'ok' ? { status: 'ok', created: true } : init;
  });
}

/** `restic unlock`: removes the locks of runs that died (kill -9, a reboot), keeps live ones. */
export function unlockStale(target: ResticTarget): Promise<Done | Failed> {
  return inLane(target, async () => outcome(await restic(target, 'unlock', [])));
}

/** Runs attempt; when a stale lock stopped it, unlocks and runs it once more. */
export function retryIfLocked<T extends { status: string }>(
  target: ResticTarget,
  attempt: () => Promise<T | Failed>,
): Promise<T | Failed> {
  return inLane(target, async () => {
    const first = await attempt();
    if (!('error' in first) || first.error.kind !== 'locked') return first;
    const unlocked = await unlockStale(target);
    return unlocked.status === 'ok' ? attempt() : unlocked;
  });
}

export { retentionSchema } from './schemas';
import { retentionSchema } from './schemas';

export type Retention = z.input<typeof retentionSchema>;

export interface Forgotten extends Done {
  kept: string[];
  removed: string[];
  /** The snapshot of `after` is among those kept (it should always be). */
  kept_new: boolean;
}

interface ForgetGroup {
  keep?: { id: string }[] | null;
  remove?: { id: string }[] | null;
}

/**
 * `forget --group-by host,tags` for one policy's snapshots (its host and tags), after the backup
 * that just succeeded (`after`): failed runs leave no snapshot, so they never push good ones out.
 * Without `--prune`: that is a separate, weekly, exclusive job.
 */
export async function forgetAfter(
  target: ResticTarget,
  after: BackupDone,
  policy: { host: string; tags: readonly string[]; keep: Retention },
): Promise<Forgotten | Failed> {
  if (after?.status !== 'ok' && after?.status !== 'partial')
    return failed('failed', 'Old backups are only forgotten after a successful one.');
  const host = checked(hostSchema, policy.host, 'host');
  const tags = checked(z.array(tagSchema).min(1).max(10), policy.tags, 'tags');
  const keep = checked(retentionSchema, policy.keep, 'keep');
  const rules = Object.entries(keep)
    .filter(([, n]) => n > 0)
    .flatMap(([rule, n]) => [`--${rule.replace('_', '-')}`, String(n)]);
  return retryIfLocked(target, async () => {
    // forget takes the exclusive lock: a stale one of a killed run would stop it.
    const unlocked = await unlockStale(target);
    if (unlocked.status !== 'ok') return unlocked;
    const args = ['--group-by', 'host,tags', '--host', host, '--tag', tags.join(','), ...rules];
    const ended = await restic(target, 'forget', args);
    const done = outcome(ended);
    if (done.status !== 'ok') return done;
    const groups = parseJson<ForgetGroup[]>(ended.stdout) ?? [];
    const kept = groups.flatMap((g) => (g.keep ?? []).map((s) => s.id));
    const removed = groups.flatMap((g) => (g.remove ?? []).map((s) => s.id));
    const kept_new = kept.some((id) => id.startsWith(after.summary.snapshot_id));
    return { status: 'ok', kept, removed, kept_new };
  });
}

/** `10%`, `2.5%` or `n/t` (part n of t: a rotation reads it all in t runs). */
const SUBSET = /^(100|[1-9]?[0-9](\.[0-9]{1,2})?)%$|^[1-9][0-9]{0,3}\/[1-9][0-9]{0,3}$/;

/** `restic check`, reading a part of the data when asked; damage is a `verify_failed`. */
export async function checkRepository(
  target: ResticTarget,
  options: { read_data_subset?: string } = {},
): Promise<Done | Failed> {
  const subset = options.read_data_subset;
  if (subset !== undefined) checked(z.string().regex(SUBSET), subset, 'read_data_subset');
  return retryIfLocked(target, async () => {
    const unlocked = await unlockStale(target);
    if (unlocked.status !== 'ok') return unlocked;
    const ended = await restic(target, 'check', subset ? [`--read-data-subset=${subset}`] : []);
    if (
      ended.code !== 0 &&
      /contains errors|error for tree|Pack ID does not match|ciphertext verification failed/i.test(
        ended.stderr + ended.stdout,
      )
    )
      return failed('verify_failed', 'The repository check found damaged data.', ended.stderr);
    return outcome(ended);
  });
}

export interface Snapshot {
  id: string;
  short_id: string;
  time: string;
  hostname: string;
  tags: string[];
  paths: string[];
}

/** The snapshots of a host (and tags, all of them), oldest first. */
export async function listSnapshots(
  target: ResticTarget,
  filter: { host?: string; tags?: readonly string[] } = {},
): Promise<(Done & { snapshots: Snapshot[] }) | Failed> {
  const args = [
    ...(filter.host ? ['--host', checked(hostSchema, filter.host, 'host')] : []),
    ...(filter.tags?.length
      ? ['--tag', checked(z.array(tagSchema), filter.tags, 'tags').join(',')]
      : []),
  ];
  return inLane(target, async () => {
    const ended = await restic(target, 'snapshots', args);
    const done = outcome(ended);
    if (done.status !== 'ok') return done;
    const list = parseJson<Snapshot[]>(ended.stdout) ?? [];
    return {
      status: 'ok',
      snapshots: list.map((s) => ({
        id: s.id,
        short_id: s.short_id,
        time: s.time,
        hostname: s.hostname,
        tags: s.tags ?? [],
        paths: s.paths ?? [],
      })),
    };
  });
}

/** restic's JSON document on stdout (one value, possibly after a line of text). */
export function parseJson<T>(stdout: string): T | null {
  const start = stdout.search(/^[[{]/m);
  if (start < 0) return null;
  try {
    return JSON.parse(stdout.slice(start)) as T;
  } catch {
    return null;
  }
}
