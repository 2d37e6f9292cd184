import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, isRegularUser, lookupUser } from '../../agent/lib/users';
import { RELEASE_DIR } from './names';

/**
 * What every installer does on the server after release.fetch unpacked the release into
 * `<app>/.stackdeck-release`: act as the app's user (its files, its rights; root never writes
 * into a folder the user controls), put the release in place, write its config, and load its
 * schema with the app's own database account.
 */

export async function appUser(name: string): Promise<PasswdEntry> {
  const user = await lookupUser(name);
  if (!user || !isRegularUser(user))
    throw opFieldError('sys_user', `No system user ${name} on this server`);
  return user;
}

export interface AsUserOptions {
  input?: string;
  cwd?: string;
  env?: Record<string, string>;
  /** 4 minutes unless said (npm ci of a large app takes longer). */
  timeoutMs?: number;
}

/** Runs a program as the app's user (argv only), with its HOME, a plain PATH and a time-out. */
export function asUser(
  user: PasswdEntry,
  file: string,
  args: string[],
  options: AsUserOptions = {},
) {
  return run(file, args, {
    uid: user.uid,
    gid: user.gid,
    input: options.input,
    cwd: options.cwd,
    timeoutMs: options.timeoutMs ?? 240_000,
    env: { HOME: user.home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', ...options.env },
  });
}

export async function mustAsUser(
  user: PasswdEntry,
  file: string,
  args: string[],
  options: AsUserOptions = {},
) {
  const res = await asUser(user, file, args, options);
  if (res.code !== 0)
    throw new OpError(
      'failed',
      `${path.basename(file)} ${args[0] ?? ''}: ${(res.stderr || res.stdout).trim().slice(-800)}`,
    );
  return res;
}

/** Writes a file as the user, mode 0640 (configs hold the database password). */
export async function writeAsUser(user: PasswdEntry, file: string, content: string) {
  await mustAsUser(user, 'install', ['-m', '0640', '/dev/null', file]);
  await mustAsUser(user, 'tee', ['--', file], { input: content });
}

/**
 * The folder of the unpacked release that holds `marker`: its one top folder
 * (`wordpress/wp-settings.php`), or the release itself for an archive without one (Joomla's).
 */
export async function releaseTree(appDir: string, marker: string): Promise<string> {
  const release = path.join(appDir, RELEASE_DIR);
  const entries = await fs.readdir(release, { withFileTypes: true }).catch(() => null);
  if (!entries) throw new OpError('failed', `The release is not unpacked in ${release}`);
  if ((await fs.lstat(path.join(release, marker)).catch(() => null))?.isFile()) return release;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const found = await fs.lstat(path.join(release, entry.name, marker)).catch(() => null);
    if (found?.isFile()) return path.join(release, entry.name);
  }
  throw new OpError('failed', `The release does not hold ${marker}`);
}

/**
 * Refuses a web root holding anything but the app's placeholder page (nothing of the user's
 * is overwritten), then removes the placeholder and the empty folder.
 */
export async function clearWebRoot(user: PasswdEntry, root: string): Promise<void> {
  const there = await fs.readdir(root).catch(() => [] as string[]);
  const theirs = there.filter((name) => !/^index\.(php|html)$/.test(name));
  if (theirs.length)
    throw opFieldError(
      'web_root',
      `The web root holds files already (${theirs.slice(0, 3).join(', ')})`,
    );
  await mustAsUser(user, 'rm', [
    '-f',
    '--',
    path.join(root, 'index.php'),
    path.join(root, 'index.html'),
  ]);
  await mustAsUser(user, 'rmdir', ['--ignore-fail-on-non-empty', '--', root]);
}

/** Moves every entry of `tree` into `dir` as the user, then removes the release folder. */
export async function moveInto(user: PasswdEntry, tree: string, dir: string): Promise<void> {
  for (const name of await fs.readdir(tree))
    await mustAsUser(user, 'mv', ['-T', '--', path.join(tree, name), path.join(dir, name)]);
  await mustAsUser(user, 'rm', ['-rf', '--', path.join(dir, RELEASE_DIR)]);
}

/**
 * Loads an SQL file of the release into the app's database as the app's database account:
 * the file is read as the app's user (a link it made to a file of root's reads nothing), and
 * its statements run with that account's rights only, never root's.
 */
export async function importSql(
  user: PasswdEntry,
  file: string,
  db: { name: string; user: string; password: string },
): Promise<void> {
  const sql = await mustAsUser(user, 'cat', ['--', file]);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-sql-'));
  const cnf = path.join(dir, 'my.cnf');
  try {
    const quoted = db.password.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    await fs.writeFile(cnf, `[client]\nuser=${db.user}\npassword="${quoted}"\n`, { mode: 0o600 });
    const res = await run('mariadb', [`--defaults-file=${cnf}`, '--database', db.name], {
      input: sql.stdout,
      timeoutMs: 240_000,
    });
    if (res.code !== 0)
      throw new OpError('failed', `Loading ${path.basename(file)}: ${res.stderr.trim()}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Puts the release's tree in place as the app's web root (only a placeholder page may be
 * there) and removes what is left of the release folder.
 */
export async function releaseAsWebRoot(
  user: PasswdEntry,
  appDir: string,
  root: string,
  marker: string,
): Promise<void> {
  if (root === appDir) throw opFieldError('web_root', 'The app needs a web root inside its folder');
  const tree = await releaseTree(appDir, marker);
  await clearWebRoot(user, root);
  await mustAsUser(user, 'mv', ['-T', '--', tree, root]);
  // The release folder itself may have become the web root (an archive without a top folder):
  // it was made private (0700); the web server reads the web root through the app's group.
  await mustAsUser(user, 'chmod', ['0750', '--', root]);
  await mustAsUser(user, 'rm', ['-rf', '--', path.join(appDir, RELEASE_DIR)]);
}

/** Runs a PHP CLI of the app (an installer, `occ`) as its user, in `cwd`. */
export async function runPhp(
  user: PasswdEntry,
  phpVersion: string,
  cwd: string,
  args: string[],
): Promise<string> {
  const res = await asUser(user, `/usr/bin/php${phpVersion}`, args, { cwd });
  if (res.code !== 0)
    throw new OpError(
      'failed',
      `${args.slice(0, 2).join(' ')}: ${(res.stderr || res.stdout).trim().slice(-800)}`,
    );
  return res.stdout;
}
