/**
 * The agent's side of per-app limits: the wrapper installed on the server (features/webapps/
 * limits.ts has its text) and each user's limit files. The cron, supervisor and deploy ops
 * call ensureWrapper() before they write a line or start a program that goes through it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './files';
import {
  type AppLimits,
  DEFAULT_LIMITS,
  LIMITS_DIR,
  WRAPPER,
  WRAPPER_SCRIPT,
  pamLimitsPath,
  renderLimitsConf,
  renderPamLimits,
} from '../../features/webapps/limits';

/** Writes a root file unless it already reads so (most calls find it in place). */
async function keep(file: string, text: string, mode: number): Promise<void> {
  const now = await fs.readFile(file, 'utf8').catch(() => null);
  const stat = now === null ? null : await fs.lstat(file);
  if (now === text && stat?.isFile() && stat.uid === 0 && (stat.mode & 0o7777) === mode) return;
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
  await writeFileAtomic(file, text, mode, { uid: 0, gid: 0 });
}

/** The wrapper, root's and not writable by anyone else: every app user's job execs it. */
export const ensureWrapper = () => keep(WRAPPER, WRAPPER_SCRIPT, 0o755);

/**
 * A user's limits, for the wrapper and for pam_limits (the user's logins, `runuser` and
 * cron's reading of the user's own crontab lines, which do not go through the wrapper).
 */
export async function writeUserLimits(user: string, limits: AppLimits): Promise<void> {
  await ensureWrapper();
  await keep(path.join(LIMITS_DIR, `${user}.conf`), renderLimitsConf(limits), 0o644);
  await keep(pamLimitsPath(user), renderPamLimits(user, limits), 0o644);
}

/**
 * The wrapper, and the defaults for a user who has no limits yet (none of its apps has a
 * setting): the defaults then reach pam_limits too, so the user's own crontab lines and logins
 * are held like the panel's jobs. Root is never limited (it could raise any limit).
 */
export async function ensureUserLimits(user: string): Promise<void> {
  await ensureWrapper();
  if (user === 'root') return;
  const there = await fs.lstat(path.join(LIMITS_DIR, `${user}.conf`)).catch(() => null);
  if (!there) await writeUserLimits(user, DEFAULT_LIMITS);
}
