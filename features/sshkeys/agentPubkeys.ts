import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { addKey, listKeys, removeKey } from './agentAuthorizedKeys';
import { run, runOk } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, isRegularUser, lookupUser } from '../../agent/lib/users';
import type { AgentFeature } from '../../agent/ops/types';
import type { ops } from './resource';

/**
 * authorized_keys of root or of a regular user. Every read and write runs as that user
 * (runuser), so root never writes through a link a user planted, and what is created belongs
 * to the user with 0700 (.ssh) and 0600 (the file). A .ssh or authorized_keys that is a
 * symbolic link is refused outright.
 */
interface KeyFile {
  user: PasswdEntry;
  dir: string;
  file: string;
}

async function keyFileOf(name: string): Promise<KeyFile> {
  const user = await lookupUser(name);
  if (!user) throw opFieldError('user_name', `No system user ${name} on this server`);
  if (name === 'root' ? user.uid !== 0 : !isRegularUser(user))
    throw new OpError(
      'refused',
      `${name} is a system account; its keys are not managed by the panel`,
    );
  if (!path.isAbsolute(user.home) || path.normalize(user.home) !== user.home)
    throw new OpError('refused', `${name} has no usable home directory (${user.home})`);
  const home = await fs.lstat(user.home).catch(() => null);
  if (!home?.isDirectory())
    throw new Error(`The home of ${name} (${user.home}) is not a directory`);
  const dir = path.join(user.home, '.ssh');
  const file = path.join(dir, 'authorized_keys');
  for (const p of [dir, file]) {
    const stat = await fs.lstat(p).catch(() => null);
    if (stat?.isSymbolicLink()) throw new OpError('refused', `${p} is a symbolic link; refused`);
    if (stat && stat.uid !== user.uid)
      throw new OpError('refused', `${p} does not belong to ${name}; refused`);
  }
  return { user, dir, file };
}

const as = (k: KeyFile, argv: string[]) => run('runuser', ['-u', k.user.name, '--', ...argv]);
const asOk = (k: KeyFile, argv: string[], input?: string) =>
  runOk('runuser', ['-u', k.user.name, '--', ...argv], { input });

async function readKeys(k: KeyFile): Promise<string> {
  if (!(await fs.lstat(k.file).catch(() => null))) return '';
  const res = await as(k, ['cat', '--', k.file]);
  if (res.code !== 0) throw new Error(`Cannot read ${k.file}: ${res.stderr.trim()}`);
  return res.stdout;
}

/** A new file beside the old one, 0600, then renamed over it. */
async function writeKeys(k: KeyFile, text: string): Promise<void> {
  await asOk(k, ['mkdir', '-p', '-m', '0700', k.dir]);
  await asOk(k, ['chmod', '0700', k.dir]);
  const temp = path.join(k.dir, `.authorized_keys.${randomBytes(6).toString('hex')}`);
  try {
    await asOk(k, ['tee', '--', temp], text);
    await asOk(k, ['chmod', '0600', temp]);
    await asOk(k, ['mv', '-f', '-T', '--', temp, k.file]);
  } finally {
    await as(k, ['rm', '-f', '--', temp]);
  }
}

type PubkeyOps = Pick<
  AgentFeature<typeof ops>['ops'],
  'pubkeys.list' | 'pubkeys.add' | 'pubkeys.remove'
>;

export const pubkeysOps: PubkeyOps = {
  async 'pubkeys.list'({ user_name }) {
    return listKeys(await readKeys(await keyFileOf(user_name)));
  },

  /** De-duplicated by fingerprint: a key that is there already is answered, not added twice. */
  async 'pubkeys.add'({ user_name, key }) {
    const k = await keyFileOf(user_name);
    const result = addKey(await readKeys(k), key);
    if (result.added) await writeKeys(k, result.text);
    return result.key;
  },

  async 'pubkeys.remove'({ user_name, fingerprint }) {
    // A user removed by hand took its keys along: nothing left to remove.
    if (!(await lookupUser(user_name))) return { removed: false };
    const k = await keyFileOf(user_name);
    const result = removeKey(await readKeys(k), fingerprint);
    if (result.removed) await writeKeys(k, result.text);
    return { removed: result.removed };
  },
};
