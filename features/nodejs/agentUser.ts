/** A Node.js app's npm, run as its user (the lookup and `asUser` are the installers'). */
import fs from 'node:fs/promises';
import path from 'node:path';
import { OpError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { asUser } from '../installers/agentApi';

/** npm ci and git clone of a large app take longer than an installer's step. */
export const NODE_STEP_MS = 600_000;

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
  const npm = await asUser(user, 'npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    env: { npm_config_update_notifier: 'false' },
    cwd: code,
    timeoutMs: NODE_STEP_MS,
  });
  if (npm.code !== 0) throw new OpError('failed', `npm ci: ${said(npm)}`);
  return true;
}
