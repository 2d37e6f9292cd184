/** Acting as a Node.js app's user on the server: its lookup, its programs, its npm. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, isRegularUser, lookupUser } from '../../agent/lib/users';

export async function appUser(name: string): Promise<PasswdEntry> {
  const user = await lookupUser(name);
  if (!user || !isRegularUser(user))
    throw opFieldError('sys_user', `No system user ${name} on this server`);
  return user;
}

/** Runs a program as the app's user (argv only), with its HOME and a plain PATH. */
export function asUser(
  user: PasswdEntry,
  file: string,
  args: string[],
  more: Record<string, string> = {},
  cwd?: string,
) {
  return run(file, args, {
    uid: user.uid,
    gid: user.gid,
    cwd,
    timeoutMs: 600_000,
    env: { HOME: user.home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', ...more },
  });
}

export const said = (res: { stdout: string; stderr: string }) =>
  `${res.stderr}${res.stdout}`.trim().split('\n').slice(-4).join(' ');

/**
 * `npm ci --omit=dev` in the code as its user when it has a package-lock.json; whether it ran.
 */
export async function npmInstall(
  user: PasswdEntry,
  code: string,
  progress: (event: string, code: number) => void,
): Promise<boolean> {
  const lock = await fs.lstat(path.join(code, 'package-lock.json')).catch(() => null);
  if (!lock?.isFile()) return false;
  progress('Installing its dependencies (npm ci --omit=dev)', 4);
  const npm = await asUser(
    user,
    'npm',
    ['ci', '--omit=dev', '--no-audit', '--no-fund'],
    { npm_config_update_notifier: 'false' },
    code,
  );
  if (npm.code !== 0) throw new OpError('failed', `npm ci: ${said(npm)}`);
  return true;
}
