/**
 * One restic process at a time per repository on this server: two policies of one server (an
 * app and its database, a backup and a check) queue in arrival order instead of failing on each
 * other's repository lock. An in-process keyed mutex (the agent is one process per server),
 * re-entrant within one call chain (a backup that unlocks and retries holds its lane throughout).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { KeyedLocks } from '../../agent/lib/locks';
import type { ResticTarget } from './agentRestic';

const lanes = new KeyedLocks();
/** The lanes the current call chain holds. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/** One key per repository however it is written (a trailing slash, a local path's `..`). */
export function laneKey(repository: string): string {
  const r = repository.replace(/\/+$/, '');
  return `restic:${r.startsWith('/') ? path.posix.normalize(r) : r}`;
}

/** Runs fn as the repository's only restic user of this agent. */
export function inLane<T>(
  target: Pick<ResticTarget, 'repository'>,
  fn: () => Promise<T>,
): Promise<T> {
  const key = laneKey(target.repository);
  const mine = held.getStore() ?? new Set<string>();
  if (mine.has(key)) return fn();
  return lanes.with([key], () => held.run(new Set([...mine, key]), fn));
}

/** Repositories in use or waited for (tests, diagnostics). */
export const lanesBusy = () => lanes.busy;
