/**
 * What the backups ops share: the system user and app folder an op names (confined to that
 * user's home), the stamp of a restore's kept and new names, a lib failure as an op error.
 */
import { lstat } from 'node:fs/promises';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, lookupUser } from '../../agent/lib/users';
import { appDir } from '../webapps/api';
import type { Failed } from './agentResticErrors';
import { confinedDir } from './agentResticInput';

export async function systemUser(name: string): Promise<PasswdEntry> {
  const user = await lookupUser(name);
  if (!user) throw opFieldError('sys_user', `The system user ${name} does not exist on the server`);
  if (user.uid === 0) throw opFieldError('sys_user', 'Backups work on apps of system users');
  return user;
}

/** The app's folder by its real path: inside the user's home, itself no symbolic link. */
export async function appFolder(user: PasswdEntry, app: string): Promise<string> {
  const given = appDir(user.home, app);
  const st = await lstat(given).catch(() => null);
  if (!st) throw opFieldError('app', `The app folder ${given} does not exist`);
  if (st.isSymbolicLink()) throw opFieldError('app', `${given} is a link, not the app's folder`);
  return confinedDir(given, [user.home], 'app');
}

/** `20261128061502`: a restore's kept and new names (UTC, to the second). */
export const stampNow = (now = new Date()) => now.toISOString().replace(/\D/g, '').slice(0, 14);

/** A lib failure (restic's, a dump's, a check's) as the op's error, in its words. */
export function failure(f: Failed, what: string): OpError {
  const detail = f.error.detail && !f.error.message.includes(f.error.detail);
  return new OpError(
    'failed',
    `${what}: ${f.error.message}${detail ? ` (${f.error.detail})` : ''}`,
  );
}

/** Whether a lib answer is a failure. */
export const isFailed = (r: { status: string }): r is Failed => r.status === 'failed';
