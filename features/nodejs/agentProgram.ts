/**
 * The supervisor side of a Node.js app on the server: its status, and its removal, which the
 * web apps' own removal also runs (the `app.removing` event of features/webapps/agent.ts), so
 * deleting the app stops its node before its files go. Only a file this feature wrote is ever
 * removed.
 */
import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { OpError } from '../../agent/lib/opError';
import { parseStatus, type ProcessStatus } from '../supervisor/api';
import { PROGRAM_MARK, PROGRAM_PREFIX, programConfPath } from './names';

export const programGroup = (app: string) => `${PROGRAM_PREFIX}${app}`;

export const supervisorctl = (args: string[]) => run('supervisorctl', args, { timeoutMs: 60_000 });

/** Whether the file at the program's path is this app's, as this feature wrote it. */
export async function ownProgram(app: string): Promise<boolean | null> {
  const text = await fs.readFile(programConfPath(app), 'utf8').catch(() => null);
  if (text === null) return null;
  return text.startsWith(`${PROGRAM_MARK}${app}\n`);
}

/** The app's process as supervisorctl shows it (exit code 3: not running, still an answer). */
export async function programStatus(app: string): Promise<ProcessStatus | null> {
  const res = await supervisorctl(['status', programGroup(app)]);
  if (res.code !== 0 && res.code !== 3 && res.code !== 4)
    throw new OpError('failed', `supervisorctl status: ${(res.stderr || res.stdout).trim()}`);
  return parseStatus(res.stdout).find((p) => p.name === app) ?? null;
}

/** Stops the app's program as a group (its children too) and removes it; none: false. */
export async function removeNodeProgram(app: string): Promise<boolean> {
  if (!(await ownProgram(app))) return false;
  await supervisorctl(['stop', programGroup(app)]);
  await fs.rm(programConfPath(app), { force: true });
  const res = await supervisorctl(['update', programGroup(app)]);
  if (res.code !== 0)
    throw new OpError(
      'reload_failed',
      `supervisorctl update: ${(res.stderr || res.stdout).trim()}`,
    );
  return true;
}
