import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { dirSize, isRotatedLog } from '../../agent/ops/cleanup';
import type { OpContext } from '../../agent/ops/types';
import { Output, bytes, stream } from './agentOutput';

const APT_ARCHIVES = '/var/cache/apt/archives';
const LOG_DIR = '/var/log';
const JOURNAL_DIRS = ['/var/log/journal', '/run/log/journal'];
/** Where disk usually goes; `du` stays on each one's filesystem. */
const USAGE_ROOTS = ['/var', '/home', '/tmp', '/root', '/opt', '/srv', '/usr'];
/** Removed files named one by one; the rest are counted. */
const NAMED_FILES = 50;

async function freeBytes(dir = '/'): Promise<number> {
  const stat = await fs.statfs(dir);
  return stat.bavail * stat.bsize;
}

async function journalSize(): Promise<number> {
  let total = 0;
  for (const dir of JOURNAL_DIRS) total += await dirSize(dir);
  return total;
}

async function hasJournalctl(): Promise<boolean> {
  return (await run('journalctl', ['--version']).catch(() => null))?.code === 0;
}

/**
 * Rotated logs under dir older than the cut-off, links never followed, the journal left to
 * journalctl, and only folders of root or system accounts entered (a user cannot swap one for a
 * link to elsewhere).
 */
async function oldLogs(dir: string, cutoffMs: number, found: string[] = []): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (JOURNAL_DIRS.includes(full)) continue;
    const stat = await fs.lstat(full).catch(() => null);
    if (!stat) continue;
    if (stat.isDirectory() && stat.uid < 1000) await oldLogs(full, cutoffMs, found);
    else if (stat.isFile() && isRotatedLog(entry.name) && stat.mtimeMs < cutoffMs) found.push(full);
  }
  return found;
}

/** apt's cache, the journal and old rotated logs, each step's bytes said. */
export async function freeDisk(
  ctx: OpContext,
  { keep_days }: { keep_days: number },
): Promise<{ summary: string }> {
  const out = new Output(ctx, 3);
  const startFree = await freeBytes();
  out.say(`Free on /: ${bytes(startFree)}`);

  const aptBefore = await dirSize(APT_ARCHIVES);
  out.say(`apt-get clean (package cache: ${bytes(aptBefore)})`);
  const clean = await stream(out, 'apt-get', ['clean'], { timeoutMs: 120_000 });
  if (clean.code !== 0) throw new Error(`apt-get clean failed (${clean.code})`);
  const packages = Math.max(0, aptBefore - (await dirSize(APT_ARCHIVES)));
  out.say(`Package cache: freed ${bytes(packages)}`);
  out.next();

  let journal = 0;
  if (await hasJournalctl()) {
    const before = await journalSize();
    out.say(`journalctl --vacuum-time=${keep_days}d (journal: ${bytes(before)})`);
    await stream(out, 'journalctl', [`--vacuum-time=${keep_days}d`], { timeoutMs: 300_000 });
    journal = Math.max(0, before - (await journalSize()));
    out.say(`Journal: freed ${bytes(journal)}`);
  } else out.say('No systemd journal on this server');
  out.next();

  out.say(`Rotated logs older than ${keep_days} days under ${LOG_DIR}`);
  const files = await oldLogs(LOG_DIR, Date.now() - keep_days * 86_400_000);
  let logs = 0;
  let removed = 0;
  for (const file of files) {
    const stat = await fs.lstat(file).catch(() => null);
    if (!stat?.isFile()) continue;
    const gone = await fs.unlink(file).then(
      () => true,
      () => false,
    );
    if (!gone) continue;
    logs += stat.size;
    removed += 1;
    if (removed <= NAMED_FILES) out.say(`removed ${file} (${bytes(stat.size)})`);
  }
  if (removed > NAMED_FILES) out.say(`... and ${removed - NAMED_FILES} more files`);
  out.say(`Old logs: ${removed} files, freed ${bytes(logs)}`);
  out.next();

  const endFree = await freeBytes();
  const freed = packages + journal + logs;
  // The summary is the task's last line (the panel adds it at the end).
  return {
    summary: `Freed ${bytes(freed)} (package cache ${bytes(packages)}, journal ${bytes(journal)}, old logs ${bytes(logs)}); free on /: ${bytes(endFree)}`,
  };
}

/** Filesystems, then the largest folders two levels down each root, then cache and journal. */
export async function diskUsage(ctx: OpContext): Promise<{ summary: string }> {
  const out = new Output(ctx, 3);
  out.say('Filesystems:');
  await stream(out, 'df', ['-h', '-P', '-x', 'tmpfs', '-x', 'devtmpfs', '-x', 'squashfs'], {
    timeoutMs: 30_000,
  });
  out.next();

  const roots: string[] = [];
  for (const root of USAGE_ROOTS) {
    const stat = await fs.lstat(root).catch(() => null);
    if (stat?.isDirectory()) roots.push(root);
  }
  out.say(`Largest folders under ${roots.join(', ')}:`);
  const sizes: { dir: string; size: number }[] = [];
  for (const root of roots) {
    const du = await stream(out, 'du', ['-x', '-B1', '-d', '2', root], {
      timeoutMs: 300_000,
      quiet: true,
    }).catch(() => ({ code: 1, lines: [] as string[] }));
    for (const line of du.lines) {
      const match = /^(\d+)\s+(\/.*)$/.exec(line);
      if (match && match[2] !== root) sizes.push({ dir: match[2]!, size: Number(match[1]) });
    }
  }
  // A folder's size includes its subfolders': show the biggest leaves and parents alike.
  const top = sizes.sort((a, b) => b.size - a.size).slice(0, 15);
  for (const { dir, size } of top) out.say(`${bytes(size).padStart(10)}  ${dir}`);
  out.next();

  const apt = await dirSize(APT_ARCHIVES);
  const journal = await journalSize();
  out.say(`Package cache (${APT_ARCHIVES}): ${bytes(apt)}`);
  out.say(`Journal: ${bytes(journal)}`);
  const free = await freeBytes();
  return {
    summary: `Free on /: ${bytes(free)}; largest: ${top[0] ? `${top[0].dir} (${bytes(top[0].size)})` : 'none'}`,
  };
}
