import fs from 'node:fs/promises';
import type { OpContext } from '../../agent/ops/types';
import { Output, stream } from './agentOutput';

/** The locks apt and dpkg take (fcntl), in the order apt takes them. Never deleted. */
export const PACKAGE_LOCKS = [
  '/var/lib/dpkg/lock-frontend',
  '/var/lib/dpkg/lock',
  '/var/lib/apt/lists/lock',
  '/var/cache/apt/archives/lock',
];

/**
 * The programs this script may stop when one still holds a lock after the wait (`comm`, cut to
 * 15 characters by the kernel): the package tools themselves, never anything else.
 */
const STOPPABLE = new Set(['apt', 'apt-get', 'aptitude', 'dpkg', 'unattended-upgr']);

interface Holder {
  pid: number;
  name: string;
  lock: string;
}

/** Who holds each lock file, from the kernel's list of locks (/proc/locks) by inode. */
export async function lockHolders(): Promise<Holder[]> {
  const inodes = new Map<number, string>();
  for (const lock of PACKAGE_LOCKS) {
    const stat = await fs.stat(lock).catch(() => null);
    if (stat) inodes.set(stat.ino, lock);
  }
  const table = await fs.readFile('/proc/locks', 'utf8').catch(() => '');
  const holders: Holder[] = [];
  for (const line of table.split('\n')) {
    // 1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF   (blocked waiters carry "->")
    const fields = line.trim().split(/\s+/);
    if (fields[1] === '->') continue;
    const pid = Number(fields[4]);
    const inode = Number(fields[5]?.split(':')[2]);
    const lock = inodes.get(inode);
    if (!lock || !(pid > 0) || holders.some((h) => h.pid === pid && h.lock === lock)) continue;
    const name = (await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '?')).trim();
    holders.push({ pid, name, lock });
  }
  return holders;
}

const alive = (pid: number) =>
  fs.stat(`/proc/${pid}`).then(
    () => true,
    () => false,
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await alive(pid))) return true;
    await sleep(200);
  }
  return !(await alive(pid));
}

const described = (holders: Holder[]) =>
  [...new Map(holders.map((h) => [h.pid, `${h.name} (PID ${h.pid})`])).values()].join(', ');

/**
 * Waits for the lock holders to end; with kill_stale stops those still there that are package
 * tools (TERM, then KILL after 10 s), never another program. Then `dpkg --configure -a` finishes
 * what an interrupted run left, and `apt-get check` proves apt works again.
 */
export async function unlockPackageManager(
  ctx: OpContext,
  { wait_seconds, kill_stale }: { wait_seconds: number; kill_stale: boolean },
): Promise<{ summary: string }> {
  const out = new Output(ctx, 4);
  let holders = await lockHolders();
  if (!holders.length) out.say('No process holds the apt or dpkg locks');
  else {
    out.say(`Locks held by ${described(holders)}; waiting up to ${wait_seconds} s`);
    const end = Date.now() + wait_seconds * 1000;
    let said = Date.now();
    while (holders.length && Date.now() < end) {
      await sleep(1000);
      holders = await lockHolders();
      if (holders.length && Date.now() - said >= 15_000) {
        out.say(`Still held by ${described(holders)}`);
        said = Date.now();
      }
    }
  }
  out.next();

  if (holders.length) {
    if (!kill_stale)
      throw new Error(
        `The package locks are still held by ${described(holders)}; wait longer, or run again stopping stale holders`,
      );
    const foreign = holders.filter((h) => !STOPPABLE.has(h.name));
    if (foreign.length)
      throw new Error(
        `The package locks are held by ${described(foreign)}, which is not apt or dpkg: not stopped`,
      );
    for (const pid of new Set(holders.map((h) => h.pid))) {
      // Read again right before the signal: a PID that ended may have been given to another.
      const name = (await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      if (!STOPPABLE.has(name)) continue;
      out.say(`Stopping PID ${pid} (TERM)`);
      process.kill(pid, 'SIGTERM');
      if (!(await waitGone(pid, 10_000))) {
        out.say(`PID ${pid} did not end: KILL`);
        process.kill(pid, 'SIGKILL');
        await waitGone(pid, 5000);
      }
    }
    holders = await lockHolders();
    if (holders.length)
      throw new Error(`The package locks are still held by ${described(holders)}`);
    out.say('The package locks are free');
  }
  out.next();

  out.say('dpkg --configure -a');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const configure = await stream(out, 'dpkg', ['--configure', '-a'], { timeoutMs: 900_000, env });
  if (configure.code !== 0) throw new Error(`dpkg --configure -a failed (${configure.code})`);
  out.next();

  out.say('apt-get check');
  const check = await stream(out, 'apt-get', ['check'], { timeoutMs: 120_000, env });
  if (check.code !== 0) throw new Error(`apt-get check failed (${check.code})`);
  return { summary: 'The package manager is unlocked and its packages configured' };
}
