import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RESERVED_USER_NAMES } from '../../resources/agent/validators';
import { run, runOk } from '../../agent/lib/exec';
import {
  type PasswdEntry,
  allUsers,
  groupExists,
  isRegularUser,
  lookupUser,
  quotaMount,
  userQuota,
} from '../../agent/lib/users';
import { type AgentFeature, defineAgentFeature } from '../../agent/ops/types';
import { type SystemUserInfo, ops } from './resource';

/** The only login shell the panel gives. */
export const USER_SHELL = '/bin/bash';

async function infoOf(entry: PasswdEntry): Promise<SystemUserInfo> {
  return {
    user_name: entry.name,
    uid: entry.uid,
    home: entry.home,
    shell: entry.shell,
    ...(await userQuota(entry)),
  };
}

/** A regular user the panel may change: exists, uid >= 1000, not nobody, never root. */
async function regularUser(name: string): Promise<PasswdEntry> {
  const entry = await lookupUser(name);
  if (!entry) throw new Error(`No system user ${name} on this server`);
  if (entry.uid === 0 || !isRegularUser(entry)) {
    throw new Error(`${name} is a system account (uid ${entry.uid}); the panel does not change it`);
  }
  return entry;
}

/**
 * `chpasswd -e` reads NAME:HASH on stdin: the hash is never in an argv or a log, and the
 * password itself never reaches the server's processes at all.
 */
async function setPasswordHash(name: string, hash: string): Promise<void> {
  if (/[:\n\r\0]/.test(hash)) throw new Error('The password hash holds a colon or a line break');
  await runOk('chpasswd', ['-e'], { input: `${name}:${hash}\n` });
}

/** The comment useradd gives the users the panel makes: a repeated apply may change only these. */
export const PANEL_MARK = 'stackdeck';

/** Runs as the user (runuser sets its groups and environment), never as root. */
function asUser(name: string, argv: string[]) {
  return run('runuser', ['-u', name, '--', ...argv]);
}

async function refuseSymlink(file: string): Promise<void> {
  const stat = await fs.lstat(file).catch(() => null);
  if (stat?.isSymbolicLink()) throw new Error(`${file} is a symbolic link; refused`);
}

/** Can a user of this name be made? (the `?dry=true` check, and the create's first step) */
async function checkName(
  user_name: string,
): Promise<{ available: boolean; reason: string | null }> {
  if ((RESERVED_USER_NAMES as readonly string[]).includes(user_name))
    return { available: false, reason: 'This name is reserved' };
  const entry = await lookupUser(user_name);
  if (entry?.uid === 0) return { available: false, reason: `${user_name} has uid 0` };
  if (entry) return { available: false, reason: `A user ${user_name} exists on the server` };
  if (await groupExists(user_name))
    return { available: false, reason: `A group ${user_name} exists on the server` };
  return { available: true, reason: null };
}

const sysusersOps: AgentFeature<typeof ops>['ops'] = {
  /** Regular users only: root, system accounts and nobody are never listed. */
  async 'sysusers.list'() {
    const users = (await allUsers()).filter(isRegularUser);
    return Promise.all(users.map(infoOf));
  },

  async 'sysusers.check'({ user_name }) {
    return checkName(user_name);
  },

  /**
   * useradd -m -s /bin/bash with its own group: no -o (no shared uid), no uid given (so never
   * 0), no supplementary groups (no sudo, no adm). Quotas where the home's filesystem has them.
   */
  async 'sysusers.create'({ user_name, password_hash, quota_hard, quota_soft }) {
    const existing = await lookupUser(user_name);
    // Applied again (a lost answer, a panel restart): the user the panel made is set as asked;
    // anyone else's account of that name is never taken over.
    const again = existing && existing.gecos === PANEL_MARK && isRegularUser(existing);
    if (!again) {
      const check = await checkName(user_name);
      if (!check.available) throw new Error(check.reason ?? 'This name is not available');
      if (!password_hash) throw new Error('A new user needs a password');
      await runOk('useradd', [
        '--create-home',
        '--shell',
        USER_SHELL,
        '--user-group',
        '--comment',
        PANEL_MARK,
        user_name,
      ]);
    }
    try {
      const entry = await regularUser(user_name);
      if (password_hash) await setPasswordHash(user_name, password_hash);
      const mount = await quotaMount(entry.home);
      if (mount && (quota_hard > 0 || quota_soft > 0 || again)) {
        const soft = String(quota_soft * 1024);
        const hard = String(quota_hard * 1024);
        await runOk('setquota', ['-u', user_name, soft, hard, '0', '0', mount]);
      }
      return await infoOf(entry);
    } catch (error) {
      // Half a user is worse than none (a user made before stays).
      if (!again) await run('userdel', ['--remove', user_name]);
      throw error;
    }
  },

  async 'sysusers.rootPassword'({ password_hash }) {
    await setPasswordHash('root', password_hash);
    return { changed: true as const };
  },

  async 'sysusers.password'({ user_name, password_hash }) {
    await regularUser(user_name);
    await setPasswordHash(user_name, password_hash);
    return { changed: true as const };
  },

  /**
   * Its processes are killed first (userdel refuses a user with running processes); one that
   * appears meanwhile (a login, a cron job starting) is killed on the next round.
   */
  async 'sysusers.delete'({ user_name, delete_home }) {
    // Gone already (removed by hand): deleting is done, so the panel's row can go too.
    if (!(await lookupUser(user_name))) return { deleted: true as const };
    const entry = await regularUser(user_name);
    const uid = String(entry.uid);
    let res = { code: 1, stdout: '', stderr: '' };
    for (let attempt = 0; attempt < 5; attempt++) {
      for (let i = 0; i < 50; i++) {
        await run('pkill', ['-KILL', '-U', uid]);
        await run('pkill', ['-KILL', '-u', uid]);
        if ((await run('pgrep', ['-u', uid])).code !== 0) break;
        await sleep(100);
      }
      res = await run('userdel', [...(delete_home ? ['--remove'] : []), user_name]);
      if (res.code !== 8) break; // 8: the user is logged in / has processes
    }
    // 12: the home (or the mail spool) could not be removed; the account is gone all the same.
    if (res.code !== 0 && !(res.code === 12 && !(await lookupUser(user_name)))) {
      const detail = (res.stderr || res.stdout).trim().split('\n').slice(-2).join(' ');
      throw new Error(`userdel failed (${res.code}): ${detail}`);
    }
    return { deleted: true as const };
  },

  /** ~/.ssh/id_ed25519, made and read as the user: root never follows the user's links. */
  async 'sysusers.deployKey'({ user_name, create }) {
    const entry = await regularUser(user_name);
    const sshDir = path.join(entry.home, '.ssh');
    const key = path.join(sshDir, 'id_ed25519');
    await refuseSymlink(sshDir);
    await refuseSymlink(`${key}.pub`);
    const read = async () => {
      const res = await asUser(user_name, ['cat', '--', `${key}.pub`]);
      return res.code === 0 ? res.stdout.trim() : null;
    };
    const existing = await read();
    if (existing || !create) return { public_key: existing };
    await runOk('runuser', ['-u', user_name, '--', 'mkdir', '-p', '-m', '0700', sshDir]);
    await refuseSymlink(key);
    const host = (await run('hostname', [])).stdout.trim() || 'server';
    await runOk('runuser', [
      '-u',
      user_name,
      '--',
      'ssh-keygen',
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-C',
      `${user_name}@${host}`,
      '-f',
      key,
    ]);
    return { public_key: await read() };
  },
};

/**
 * System users: useradd/userdel/chpasswd under the `users` lock (passwd, shadow and group are
 * one file set), the deployment key under `ssh_keys:<user>`.
 */
export const agent = defineAgentFeature(ops, {
  ops: sysusersOps,
  locks: {
    'sysusers.create': () => ['users'],
    'sysusers.rootPassword': () => ['users'],
    'sysusers.password': () => ['users'],
    'sysusers.delete': () => ['users'],
    'sysusers.deployKey': ({ user_name }) => [`ssh_keys:${user_name}`],
  },
});
