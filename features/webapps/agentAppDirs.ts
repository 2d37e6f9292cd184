/**
 * An app's folders on disk: made as the app's user where the user owns them, root's where
 * the app's group only reads (its logs), and the user's home opened to the web server.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { placeholder } from './placeholder';
import type { AppSpec } from './resource';

/**
 * Makes a directory as the app's user, so nothing the user owns (a link planted in its home)
 * can lead root to create or chown elsewhere: the user's own rights bound what happens.
 */
export async function mkdirAsUser(user: PasswdEntry, dir: string, mode: string): Promise<void> {
  const res = await run('mkdir', ['-p', '-m', mode, '--', dir], { uid: user.uid, gid: user.gid });
  if (res.code !== 0)
    throw new OpError('failed', `Could not make ${dir} as ${user.name}: ${res.stderr.trim()}`);
}

/** Writes the placeholder page as the user, unless the folder has an index already. */
export async function placeholderAsUser(
  user: PasswdEntry,
  root: string,
  spec: AppSpec,
): Promise<void> {
  const entries = await fs.readdir(root).catch(() => [] as string[]);
  if (entries.some((e) => /^index\.(php|html?)$/.test(e))) return;
  const page = placeholder(spec);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-page-'));
  try {
    await fs.chmod(tmp, 0o755);
    const source = path.join(tmp, page.file);
    await fs.writeFile(source, page.content, { mode: 0o644 });
    // cp -n: never over a file of the user's.
    await run('cp', ['-n', '--', source, path.join(root, page.file)], {
      uid: user.uid,
      gid: user.gid,
    });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** A directory of root's, the app's group may read (its logs). */
export async function rootDir(dir: string, gid: number): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) throw new OpError('refused', `${dir} is not a directory`);
  await fs.chown(dir, 0, gid);
  await fs.chmod(dir, 0o750);
}

/**
 * The web server reads an app's static files through the app's group; its home must let the
 * group through (Debian makes homes 0700). Nothing else of another user's reaches them.
 */
export async function letWebServerIn(user: PasswdEntry): Promise<void> {
  const groups = (await run('id', ['-nG', 'www-data'])).stdout.trim().split(/\s+/);
  if (!groups.includes(user.name)) {
    const res = await run('usermod', ['-aG', user.name, 'www-data']);
    if (res.code !== 0) throw new OpError('failed', `usermod: ${res.stderr.trim()}`);
  }
  const home = await fs.lstat(user.home).catch(() => null);
  if (!home?.isDirectory() || home.uid !== user.uid)
    throw opFieldError('sys_user', `The home of ${user.name} is missing or not theirs`);
  // Group: traverse only; others: nothing.
  await fs.chmod(user.home, (home.mode & 0o700) | 0o010);
}
