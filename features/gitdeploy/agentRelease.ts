/**
 * Releases of a git-deployed app: folders under ~/apps/.releases/<app>/, and the app's folder a
 * symlink to one of them. Every change is made by the app's user (root never follows a link of
 * the user's), and the switch is one rename(2) of a fresh symlink over the old one, so nginx
 * sees the old tree or the new one, never none or half of one (`ln -sfn` unlinks first).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { OpError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { KEEP_RELEASES } from './names';
import { asUser, asUserOk, deployPaths, said } from './agentRun';

/** Release folder names: a UTC time stamp (sorts by age), then the commit or `initial`. */
export const RELEASE_NAME = /^\d{17}-(?:[0-9a-f]{7,40}|initial)$/;

export const stamp = (now = new Date()) => now.toISOString().replace(/\D/g, '').slice(0, 17);

/** What the app's files from before its first deploy become: the oldest release, kept. */
export const INITIAL_RELEASE = `${stamp(new Date(0))}-initial`;

/** Entries counted at most: the page says "more than" beyond it. */
const COUNT_CAP = 100_000;

/**
 * The entries (all depths) of the app's folder while it is a plain folder, which the first
 * deploy keeps as INITIAL_RELEASE; 0 once it is a release's link or when it is missing.
 */
export async function existingFiles(user: PasswdEntry, app: string): Promise<number> {
  const { appDir } = deployPaths(user, app);
  const stat = await fs.lstat(appDir).catch(() => null);
  if (!stat?.isDirectory()) return 0;
  // One character per entry, as the user (root never walks a user's tree).
  const res = await asUser(user, 'find', [appDir, '-mindepth', '1', '-printf', '.'], {
    timeoutMs: 30_000,
  });
  return Math.min(res.stdout.length, COUNT_CAP);
}

/** The release the app's folder points at; null while it is still a plain folder. */
export async function currentRelease(user: PasswdEntry, app: string): Promise<string | null> {
  const { appDir, releases } = deployPaths(user, app);
  // lstat and readlink never follow the link: they only read what it says.
  const stat = await fs.lstat(appDir).catch(() => null);
  if (!stat) return null;
  if (!stat.isSymbolicLink()) return null;
  const target = await fs.readlink(appDir);
  const name = target.slice(releases.length + 1);
  return target.startsWith(`${releases}/`) && RELEASE_NAME.test(name) ? name : null;
}

/** The app's releases, oldest first (listed by the user). */
export async function listReleases(user: PasswdEntry, app: string): Promise<string[]> {
  const { releases } = deployPaths(user, app);
  const res = await asUser(user, 'ls', ['-1', '--', releases]);
  if (res.code !== 0) return [];
  return res.stdout
    .split('\n')
    .filter((n) => RELEASE_NAME.test(n))
    .sort();
}

/**
 * Points the app's folder at a release. The first time the folder is a real one: it becomes
 * the `initial` release and the link takes its place, both renames in one process, back to back.
 */
export async function switchTo(user: PasswdEntry, app: string, release: string): Promise<void> {
  const { appDir, releases } = deployPaths(user, app);
  const link = `${user.home}/apps/.${app}.link-${randomBytes(6).toString('hex')}`;
  await asUserOk(user, 'ln', ['-s', '--', `${releases}/${release}`, link]);
  const stat = await fs.lstat(appDir).catch(() => null);
  const args =
    stat && !stat.isSymbolicLink()
      ? // A constant script; the paths are its arguments, never part of it.
        [
          '-c',
          'mv -T -- "$1" "$2" && mv -T -- "$3" "$1"',
          'switch',
          appDir,
          `${releases}/${INITIAL_RELEASE}`,
          link,
        ]
      : ['-c', 'mv -T -- "$2" "$1"', 'switch', appDir, link];
  const res = await asUser(user, 'bash', args);
  if (res.code !== 0) {
    await asUser(user, 'rm', ['-f', '--', link]);
    throw new OpError('failed', `Switching the release failed: ${said(res)}`);
  }
}

/** Removes a release (as the user); the one being served is never passed here. */
export const removeRelease = (user: PasswdEntry, app: string, release: string) =>
  asUser(user, 'rm', ['-rf', '--', `${deployPaths(user, app).releases}/${release}`], {
    timeoutMs: 300_000,
  });

/** Keeps the newest KEEP_RELEASES and the one served; removes the others. */
export async function pruneReleases(user: PasswdEntry, app: string): Promise<string[]> {
  const current = await currentRelease(user, app);
  const all = await listReleases(user, app);
  const old = all.slice(0, Math.max(0, all.length - KEEP_RELEASES)).filter((r) => r !== current);
  for (const release of old) await removeRelease(user, app, release);
  return old;
}

/**
 * The site as a visitor gets it, through nginx on this server: the app's domain as Host to
 * 127.0.0.1. Anything below 500 is healthy (a redirect to https, a 404 of a missing path are
 * the app's own answers); no answer or a 5xx is not.
 */
export async function healthCheck(domain: string, path: string): Promise<string | null> {
  const res = await run(
    'curl',
    [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--max-time',
      '15',
      '-H',
      `Host: ${domain}`,
      `http://127.0.0.1${path}`,
    ],
    { timeoutMs: 20_000 },
  );
  const status = Number(res.stdout.trim());
  if (res.code !== 0 || !status) return `No answer from ${domain}${path}: ${said(res)}`;
  if (status >= 500) return `${domain}${path} answered ${status}`;
  return null;
}
