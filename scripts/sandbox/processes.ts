import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKER, SANDBOX_BASE, parseMarker } from './paths';

/** Reads of /proc: this kernel has no /proc/PID/task/TID/children, so parents come from stat. */

export function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

interface Stat {
  state: string;
  ppid: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** A zombie counts as gone: it has exited, only its parent has not collected it yet. */
export function alive(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z' && s.state !== 'X';
}

export function childrenOf(pid: number): number[] {
  return allPids().filter((p) => stat(p)?.ppid === pid);
}

export function namespaceOf(pid: number, kind: 'pid' | 'mnt' | 'net'): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/${kind}`);
  } catch {
    return undefined;
  }
}

export function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The sandbox (base and id) a process was started for, from the marker in its environment. */
export function markerOf(pid: number): { base: string; id: string } | undefined {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const entry = env.find((e) => e.startsWith(`${MARKER}=`));
    const value = entry?.slice(MARKER.length + 1);
    return value ? parseMarker(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Processes carrying the marker of one sandbox, or of any sandbox when id is omitted — of the
 * given base only (default: this process's base), never those of another base.
 */
export function markedProcesses(
  id?: string,
  base: string = SANDBOX_BASE,
): { pid: number; id: string }[] {
  const found: { pid: number; id: string }[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    const marker = markerOf(pid);
    if (marker === undefined || marker.base !== base) continue;
    if (id === undefined || marker.id === id) found.push({ pid, id: marker.id });
  }
  return found;
}

export function kill(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/**
 * Waits until the pids have exited, then (briefly) until their parents have collected them,
 * so that a caller checking /proc afterwards finds nothing. Returns the pids still running.
 */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = left.filter(alive);
  }
  const reapDeadline = Date.now() + 2_000;
  while (pids.some((pid) => stat(pid) !== undefined) && Date.now() < reapDeadline) await sleep(20);
  return left;
}
