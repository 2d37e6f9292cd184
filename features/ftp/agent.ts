import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { selfSignedPair } from '../../agent/lib/selfSigned';
import { confinedPath, writeFileAtomic } from '../../agent/lib/files';
import { hasSystemd, unitAction, unitRunning } from '../../agent/lib/init';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, UID_MIN, lookupUser } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  type FtpLine,
  ROOT_DIRECTORY,
  chrootHome,
  homeDir,
  marker,
  parseFtpPasswd,
  renderFtpPasswd,
} from './names';
import { waitForFtpListening } from './agentListen';
import { ops } from './resource';

const ETC = '/etc/pure-ftpd';
const PASSWD = `${ETC}/pureftpd.passwd`;
const PDB = `${ETC}/pureftpd.pdb`;
/** Debian's wrapper turns each link of auth/ into a `-l` method, in the links' order. */
const AUTH_LINK = `${ETC}/auth/50pure`;
/** Key and certificate in one file, where Debian's Pure-FTPd reads them (TLS=1). */
const TLS_PEM = '/etc/ssl/private/pure-ftpd.pem';

/**
 * Pure-FTPd as the panel runs it (one option per file of conf/, Debian's wrapper): the panel's
 * virtual users (PureDB) and no one else, each shut in its folder, app users allowed (uid 1000
 * and up), passive transfers on a known range for the firewall, no reverse DNS on login.
 */
const CONF: Record<string, string> = {
  PureDB: PDB,
  ChrootEveryone: 'yes',
  MinUID: String(UID_MIN),
  NoAnonymous: 'yes',
  PAMAuthentication: 'no',
  UnixAuthentication: 'no',
  PassivePortRange: '30000 30100',
  DontResolve: 'yes',
  // Clients may (and should) protect the login with TLS; plain FTP still works.
  TLS: '1',
};

/** What a home in the passwd file may hold: the characters of app names and folder names. */
const SAFE_PATH = /^\/[A-Za-z0-9._/-]+$/;

const installed = async () =>
  (await fs.stat('/usr/sbin/pure-ftpd').catch(() => null))?.isFile() ?? false;

/**
 * A self-signed certificate for FTP over TLS, made once; one put there already (the server's
 * host certificate) is kept.
 */
async function ensureCertificate(): Promise<boolean> {
  if (await fs.stat(TLS_PEM).catch(() => null)) return false;
  await fs.mkdir(path.dirname(TLS_PEM), { recursive: true, mode: 0o710 });
  const host = (await run('hostname', ['-f'])).stdout.trim() || 'localhost';
  const { key, cert } = await selfSignedPair(host);
  await writeFileAtomic(TLS_PEM, `${key}${cert}`, 0o600);
  return true;
}

/** Writes what differs of CONF and the PureDB link; whether anything changed. */
async function ensureConfig(): Promise<boolean> {
  let changed = await ensureCertificate();
  await fs.mkdir(`${ETC}/conf`, { recursive: true, mode: 0o755 });
  await fs.mkdir(`${ETC}/auth`, { recursive: true, mode: 0o755 });
  for (const [name, value] of Object.entries(CONF)) {
    const file = `${ETC}/conf/${name}`;
    const now = await fs.readFile(file, 'utf8').catch(() => null);
    if (now?.trim() === value) continue;
    await writeFileAtomic(file, `${value}\n`, 0o644);
    changed = true;
  }
  const link = await fs.readlink(AUTH_LINK).catch(() => null);
  if (link !== '../conf/PureDB') {
    await fs.rm(AUTH_LINK, { force: true });
    await fs.symlink('../conf/PureDB', AUTH_LINK);
    changed = true;
  }
  return changed;
}

/** Starts Pure-FTPd, or restarts it when its options changed (they are read at start only). */
async function ensureRunning(changed: boolean): Promise<void> {
  const systemd = await hasSystemd();
  const running = await unitRunning('pure-ftpd', systemd);
  if (running && !changed) return;
  const res = await unitAction('pure-ftpd', running ? 'restart' : 'start', systemd);
  if (res.code !== 0)
    throw new OpError('reload_failed', `pure-ftpd ${running ? 'restart' : 'start'}: ${res.output}`);
  // The init script answers before the daemon listens: a client sent there now must get in.
  await waitForFtpListening();
}

async function readLines(): Promise<FtpLine[]> {
  const text = await fs.readFile(PASSWD, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return parseFtpPasswd(text);
}

/** The passwd file (root's only: it holds hashes) and the database Pure-FTPd reads at each login. */
async function writeLines(lines: FtpLine[]): Promise<void> {
  await writeFileAtomic(PASSWD, renderFtpPasswd(lines), 0o600);
  const res = await run('pure-pw', ['mkdb', PDB, '-f', PASSWD]);
  if (res.code !== 0)
    throw new OpError('failed', `pure-pw mkdb: ${(res.stderr || res.stdout).trim()}`);
}

const notOurs = (line: FtpLine, id: number) => line.gecos !== marker(id);

/**
 * The app's folder: a real directory of the app's user (never a link), under its home. The
 * account's folder is resolved inside it, no component a link.
 */
async function appFolder(
  sysUser: string,
  app: string,
): Promise<{ user: PasswdEntry; root: string }> {
  const user = await lookupUser(sysUser);
  if (!user) throw opFieldError('directory', `${sysUser}, the app's user, is not on the server`);
  if (user.uid < UID_MIN) throw opFieldError('directory', `${sysUser} is a system account`);
  const root = path.join(user.home, 'apps', app);
  for (const dir of [path.join(user.home, 'apps'), root]) {
    const stat = await fs.lstat(dir).catch(() => null);
    if (!stat?.isDirectory() || stat.uid !== user.uid)
      throw opFieldError('directory', `The app's folder ${root} is missing on the server`);
  }
  return { user, root: await fs.realpath(root) };
}

async function folderIn(root: string, directory: string): Promise<string> {
  try {
    return await confinedPath(root, directory);
  } catch (error) {
    throw opFieldError('directory', `${directory}: ${(error as Error).message}`);
  }
}

/** Makes the folder as the app's user: nothing the user planted can lead root elsewhere. */
async function makeFolder(user: PasswdEntry, dir: string): Promise<void> {
  const res = await run('mkdir', ['-p', '-m', '0750', '--', dir], { uid: user.uid, gid: user.gid });
  if (res.code !== 0)
    throw opFieldError('directory', `Could not make ${dir}: ${res.stderr.trim()}`);
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) throw opFieldError('directory', `${dir} is not a folder`);
}

/** FTP accounts: every op holds Pure-FTPd's passwd file, so parallel changes never lose one. */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'ftp.set'({ id, username, sys_user, app, directory, password_hash }) {
      if (!(await installed()))
        throw new OpError('failed', 'Pure-FTPd is not installed on the server');
      const { user, root } = await appFolder(sys_user, app);
      const dir = await folderIn(root, directory);
      if (dir !== root) await makeFolder(user, dir);
      // Resolved again once it exists: the very folder checked (no link swapped in since), and
      // a path the passwd line can hold (a `:` or a line break would forge fields or lines).
      const real = await fs.realpath(dir);
      if (real !== dir || (real !== root && !real.startsWith(`${root}/`)))
        throw opFieldError('directory', `${directory} leads out of the app's folder`);
      if (!SAFE_PATH.test(real))
        throw opFieldError('directory', `${real} has characters an FTP home cannot have`);

      const lines = await readLines();
      const same = lines.find((l) => l.username === username);
      if (same && notOurs(same, id))
        throw opFieldError('username', `The server has another FTP account named ${username}`);
      const hash = password_hash ?? same?.hash;
      if (!hash)
        throw opFieldError(
          'password',
          'The server does not have this account any more: give it a new password',
        );
      const line: FtpLine = {
        username,
        hash,
        uid: user.uid,
        gid: user.gid,
        gecos: marker(id),
        home: chrootHome(real),
        rest: same?.rest ?? [],
      };
      // The account's line in place (or at the end); a line of this id under an old name goes.
      const next = lines
        .filter((l) => l.username === username || notOurs(l, id))
        .map((l) => (l.username === username ? line : l));
      if (!same) next.push(line);
      await writeLines(next);
      await ensureRunning(await ensureConfig());
      return { path: real };
    },

    async 'ftp.remove'({ id, username, sys_user, app, directory, delete_dir }) {
      // The folder to delete is found first: a refusal leaves the account as it was.
      let folder: { user: PasswdEntry; dir: string } | null = null;
      if (delete_dir && directory !== ROOT_DIRECTORY) {
        const found = await appFolder(sys_user, app).catch(() => null);
        if (found) {
          const dir = await confinedPath(found.root, directory).catch((error: Error) => {
            throw opFieldError('delhome', `${directory} is not deleted: ${error.message}`);
          });
          if (dir !== found.root) folder = { user: found.user, dir };
        }
      }
      const lines = await readLines();
      const mine = lines.filter((l) => l.username === username && !notOurs(l, id));
      if (mine.length) await writeLines(lines.filter((l) => !mine.includes(l)));
      if (folder) {
        // As the user: whatever they planted in their folder, rm cannot reach past their rights.
        const res = await run('rm', ['-rf', '--', folder.dir], {
          uid: folder.user.uid,
          gid: folder.user.gid,
          timeoutMs: 600_000,
        });
        if (res.code !== 0)
          throw opFieldError('delhome', `Could not delete ${folder.dir}: ${res.stderr.trim()}`);
      }
      return { removed: mine.length > 0 };
    },

    async 'ftp.list'() {
      return (await readLines()).flatMap((l) => {
        const m = /^stackdeck-(\d+)$/.exec(l.gecos);
        return m ? [{ id: Number(m[1]), username: l.username, home: homeDir(l.home) }] : [];
      });
    },
  },
  locks: {
    'ftp.set': () => ['pureftpd'],
    'ftp.remove': () => ['pureftpd'],
  },
});
