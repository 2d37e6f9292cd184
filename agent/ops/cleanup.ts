import fs from 'node:fs/promises';
import path from 'node:path';
import { run, runOk } from '../lib/exec';
import type { OpTable } from './types';

const APT_ARCHIVES = '/var/cache/apt/archives';
const LOG_DIR = '/var/log';
const JOURNAL_DIRS = ['/var/log/journal', '/run/log/journal'];
/** Rotated logs older than this go; the journal keeps as much. */
export const KEEP_DAYS = 3;

/** Bytes of the regular files under dir, never following a link. */
export async function dirSize(dir: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await dirSize(full);
    else if (entry.isFile()) total += (await fs.lstat(full).catch(() => null))?.size ?? 0;
  }
  return total;
}

/** logrotate's leftovers: name.1, name.2.gz, name.log-20240101.gz, *.old, compressed logs. */
export function isRotatedLog(name: string): boolean {
  return (
    /\.(gz|xz|bz2|zst)$/.test(name) ||
    /\.\d+$/.test(name) ||
    /\.old$/.test(name) ||
    /-\d{8}$/.test(name)
  );
}

/**
 * Removes rotated logs under dir older than the cut-off; returns the bytes freed. Links are
 * never followed, the journal is left to journalctl, and only dirs of root or of system
 * accounts are entered (no user can swap one for a link to elsewhere).
 */
async function removeOldLogs(dir: string, cutoffMs: number): Promise<number> {
  let freed = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (JOURNAL_DIRS.includes(full)) continue;
    const stat = await fs.lstat(full).catch(() => null);
    if (!stat) continue;
    if (stat.isDirectory()) {
      if (stat.uid < 1000) freed += await removeOldLogs(full, cutoffMs);
    } else if (stat.isFile() && isRotatedLog(entry.name) && stat.mtimeMs < cutoffMs) {
      await fs.unlink(full).then(
        () => (freed += stat.size),
        () => undefined,
      );
    }
  }
  return freed;
}

async function journalSize(): Promise<number> {
  let total = 0;
  for (const dir of JOURNAL_DIRS) total += await dirSize(dir);
  return total;
}

export const cleanupOps: Pick<OpTable, 'system.cleanup'> = {
  async 'system.cleanup'() {
    const aptBefore = await dirSize(APT_ARCHIVES);
    const apt = await run('apt-get', ['clean'], { timeoutMs: 120_000 }).catch(() => null);
    const packages = apt ? Math.max(0, aptBefore - (await dirSize(APT_ARCHIVES))) : 0;

    const logs = await removeOldLogs(LOG_DIR, Date.now() - KEEP_DAYS * 86_400_000);

    let journal = 0;
    const hasJournalctl = (await run('journalctl', ['--version']).catch(() => null))?.code === 0;
    if (hasJournalctl) {
      const before = await journalSize();
      await runOk('journalctl', [`--vacuum-time=${KEEP_DAYS}d`], { timeoutMs: 120_000 }).catch(
        () => undefined,
      );
      journal = Math.max(0, before - (await journalSize()));
    }
    return { packages, logs, journal };
  },
};
