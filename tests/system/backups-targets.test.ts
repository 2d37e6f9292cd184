/**
 * The agent's restic runner (features/backups/agent*.ts) against the storage targets other than
 * the panel's own, with real programs only: S3 (s3rver over HTTPS, its self-signed certificate
 * given as the target's `cacert`), SFTP (a dedicated sshd on 127.0.0.1, reached through the
 * target's `sftp` settings, and through the agent's op path with the key and host keys the panel
 * sends), a local repository with a damaged pack file, and S3 credentials
 * that are wrong. No sandbox server: restic 0.14 runs on this machine.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  appendFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent } from '../../features/backups/agent';
import { backupFiles } from '../../features/backups/agentBackupFiles';
import { type ResticTarget } from '../../features/backups/agentRestic';
import type { BackupDone, BackupResult } from '../../features/backups/agentResticBackup';
import {
  checkRepository,
  ensureRepository,
  listSnapshots,
} from '../../features/backups/agentRepoMaintenance';
import { restoreFiles } from '../../features/backups/agentRestore';
import { withTargetFiles } from '../../features/backups/agentTargetFiles';
import { ops } from '../../features/backups/resource';
import { newSshKeyPair } from '../../features/backups/serverSshKeys';
import {
  type S3Server,
  type SshServer,
  digests,
  selfSignedCert,
  startS3,
  startSshd,
} from './support/backups-storage';

const HOST = `server-${randomUUID()}`;
let TMP = '';
let APP = '';
let s3: S3Server;
let sshd: SshServer;
let cacert = '';

function done(r: BackupResult): BackupDone {
  if (r.status === 'failed')
    throw new Error(`${r.error.kind}: ${r.error.message} (${r.error.detail})`);
  return r;
}

/** The app's folder: text, random bytes (incompressible, over a pack's size) and a subfolder. */
async function makeApp(root: string) {
  await mkdir(path.join(root, 'public', 'img'), { recursive: true });
  await writeFile(path.join(root, 'public', 'index.php'), '<?php echo "hello";\n');
  await writeFile(path.join(root, 'public', 'img', 'photo.jpg'), randomBytes(6 * 1024 * 1024));
  await writeFile(path.join(root, 'notes.txt'), 'x'.repeat(20_000));
}

/** Backs the app up, lists it, restores it into a new folder and compares every file. */
async function roundTrip(target: ResticTarget, name: string) {
  expect(await ensureRepository(target)).toEqual({ status: 'ok', created: true });
  const backup = done(
    await backupFiles(target, { app_id: name, root: APP, host: HOST }, { allowedRoots: [TMP] }),
  );
  expect(backup.status).toBe('ok');
  expect(backup.summary.files_new).toBe(3);
  const listed = await listSnapshots(target, { host: HOST, tags: [`app:${name}`] });
  if (listed.status !== 'ok') throw new Error(listed.error.message);
  expect(listed.snapshots.map((s) => s.id)).toEqual([
    expect.stringMatching(new RegExp(`^${backup.summary.snapshot_id}`)),
  ]);
  const into = path.join(TMP, `restored-${name}`);
  const restored = await restoreFiles(
    target,
    { snapshot: backup.summary.snapshot_id, target: into },
    { allowedRoots: [TMP] },
  );
  expect(restored).toMatchObject({ status: 'ok', target: into });
  expect(await digests(into)).toEqual(await digests(APP));
  return backup;
}

beforeAll(async () => {
  TMP = await mkdtemp('/var/tmp/stackdeck-backup-targets-');
  APP = path.join(TMP, 'app');
  await makeApp(APP);
  const tls = await selfSignedCert(TMP);
  cacert = tls.cert;
  [s3, sshd] = await Promise.all([startS3(TMP, tls, ['backups']), startSshd(TMP)]);
});

afterAll(async () => {
  await s3?.close();
  await sshd?.close();
  if (TMP) await rm(TMP, { recursive: true, force: true });
});

const s3Target = (prefix: string, keys = s3): ResticTarget => ({
  repository: `s3:${s3.endpoint}/backups/${prefix}`,
  password: randomBytes(16).toString('hex'),
  env: { AWS_ACCESS_KEY_ID: keys.accessKeyId, AWS_SECRET_ACCESS_KEY: keys.secretAccessKey },
  cacert,
  cache_dir: path.join(TMP, 'cache'),
});

describe('S3 (s3rver over HTTPS, self-signed certificate as cacert)', () => {
  it('creates the repository, backs up, lists, restores the same files and checks it', async () => {
    // The CA as the panel sends it (PEM in the op's target), written for the op only.
    const { cacert: file, ...sent } = s3Target('server-1');
    const pem = await readFile(file!, 'utf8');
    let written = '';
    const handed: ResticTarget = { ...sent, cacert_pem: pem };
    await withTargetFiles({ target: handed }, async ({ target }) => {
      written = target.cacert!;
      expect(target.cacert_pem).toBeUndefined();
      expect(await readFile(written, 'utf8')).toBe(`${pem.trim()}\n`);
      expect((await stat(written)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(written))).mode & 0o777).toBe(0o700);
      await roundTrip(target, 's3');
      expect(await checkRepository(target, { read_data_subset: '100%' })).toEqual({
        status: 'ok',
      });
    });
    await expect(stat(path.dirname(written))).rejects.toThrow(/ENOENT/);
  });

  it('without the certificate, says the storage cannot be reached (certificate)', async () => {
    const target = { ...s3Target('server-1'), cacert: undefined };
    const r = await listSnapshots(target);
    expect(r).toMatchObject({ status: 'failed', error: { kind: 'unreachable' } });
    if (r.status === 'failed') expect(r.error.detail).toMatch(/certificate/);
  });

  // An unknown key: s3rver 3.7.1 does not verify SigV4 signatures, so a wrong secret with the
  // right key id passes there and is not tested. Both an existing repository and a new one must
  // say "refused", never "no repository" (ensureRepository would then try to create one).
  it('with a wrong key, says the storage refused the credentials', async () => {
    const wrong = { ...s3, accessKeyId: 'NOT-A-KEY', secretAccessKey: 'not the secret' };
    for (const target of [s3Target('server-1', wrong), s3Target('server-new', wrong)]) {
      const r = await ensureRepository(target);
      expect(r).toMatchObject({
        status: 'failed',
        error: { kind: 'denied', message: 'The backup storage refused the credentials.' },
      });
    }
  });
});

describe('SFTP (a dedicated sshd on 127.0.0.1, key login, known host key)', () => {
  const sftpTarget = (known = sshd.knownHostsFile): ResticTarget => ({
    repository: `sftp:root@127.0.0.1:${path.join(TMP, 'sftp-repo')}`,
    password: 'sftp repository password',
    cache_dir: path.join(TMP, 'cache'),
    sftp: { port: sshd.port, identity_file: sshd.identityFile, known_hosts_file: known },
  });

  it('creates the repository, backs up, restores the same files', async () => {
    await roundTrip(sftpTarget(), 'sftp');
    expect((await readdir(path.join(TMP, 'sftp-repo'))).sort()).toEqual(
      expect.arrayContaining(['config', 'data', 'index', 'keys', 'snapshots']),
    );
  });

  // ssh says "Host key verification failed"; restic's last words are the session's end.
  it('refuses a server whose host key is not the known one', async () => {
    const other = path.join(TMP, 'other_known_hosts');
    await writeFile(
      other,
      `[127.0.0.1]:${sshd.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx0c2cLwM5h0t7zvE0y0bqJmGm7l2oS6cF5wG9m4XyZ\n`,
    );
    const r = await listSnapshots(sftpTarget(other));
    expect(r).toMatchObject({ status: 'failed', error: { kind: 'unreachable' } });
    if (r.status === 'failed') expect(r.error.detail).toMatch(/unable to start the sftp session/);
  });

  it('refuses sftp settings that could smuggle ssh options', async () => {
    const base = sftpTarget();
    await expect(
      listSnapshots({ ...base, sftp: { identity_file: '/tmp/key -oProxyCommand=x' } }),
    ).rejects.toThrow();
    await expect(
      listSnapshots({ ...base, repository: 'sftp:-oProxyCommand=x@127.0.0.1:/r' }),
    ).rejects.toThrow();
  });
});

/**
 * What an op on an SFTP target gets from the panel: the account's key (made by the panel's own
 * encoder) and the target's pinned host keys, as text. The agent's op path writes them to a
 * root-only folder for the op and removes it after; the test writes no key file of its own.
 */
describe('SFTP through the op path (the account key and pinned host keys sent with the op)', () => {
  const account = newSshKeyPair();
  const ctx = { progress: () => undefined, emit: () => Promise.resolve() };
  const opsBase = () => (process.getuid?.() === 0 ? '/run/stackdeck/backup-ssh' : os.tmpdir());
  const opFolders = async () =>
    (await readdir(opsBase()).catch(() => [] as string[])).filter((n) => n.startsWith('op-'));
  const sent = (hostKeys: string[], privateKey = account.privateKey) => ({
    repository: `sftp:root@127.0.0.1:${path.join(TMP, 'sftp-op-repo')}`,
    password: 'sftp op repository password',
    cache_dir: path.join(TMP, 'cache'),
    sftp: { port: sshd.port, private_key: privateKey, host_keys: hostKeys },
  });
  const check = (target: ReturnType<typeof sent>) =>
    agent.ops['backups.check']!(
      ops['backups.check'].args.parse({ target, read_data_subset: '1/1' }),
      ctx,
    ) as Promise<{ ok: boolean; message: string }>;

  beforeAll(async () => {
    await appendFile(sshd.authorizedKeysFile, `${account.publicKey}\n`);
  });

  it('backs up and restores with the files the op wrote, checks, and leaves no file behind', async () => {
    const before = await opFolders();
    const args = ops['backups.check'].args.parse({
      target: sent([sshd.hostKey]),
      read_data_subset: null,
    });
    let seen: ResticTarget['sftp'];
    await withTargetFiles(args, async (a) => {
      seen = a.target.sftp;
      const dir = path.dirname(a.target.sftp!.identity_file!);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(a.target.sftp!.identity_file!)).mode & 0o777).toBe(0o600);
      expect(await readFile(a.target.sftp!.known_hosts_file!, 'utf8')).toBe(
        `[127.0.0.1]:${sshd.port} ${sshd.hostKey}\n`,
      );
      await roundTrip(a.target, 'sftp-op');
    });
    // The key went as a file only: what restic's ssh was given names files, and they are gone.
    expect(Object.keys(seen!).sort()).toEqual([
      'identity_file',
      'known_hosts_file',
      'log_file',
      'port',
    ]);
    await expect(stat(seen!.identity_file!)).rejects.toThrow(/ENOENT/);
    expect(await check(sent([sshd.hostKey]))).toMatchObject({ ok: true });
    expect(await opFolders()).toEqual(before);
  });

  it('refuses a server whose host key is not the pinned one, and a key it does not know', async () => {
    const before = await opFolders();
    const other = newSshKeyPair().publicKey.split(' ').slice(0, 2).join(' ');
    await expect(check(sent([other]))).rejects.toThrow(
      "The check could not run: The backup storage's host key is not the one pinned for it",
    );
    // A key the storage does not know: never in, and said so (ssh's own log, not restic's relay
    // of its stderr, which restic 0.14 sometimes ends before it has passed on).
    const stranger = newSshKeyPair().privateKey;
    await expect(check(sent([sshd.hostKey], stranger))).rejects.toThrow(
      'The check could not run: The backup storage refused the credentials',
    );
    expect(await opFolders()).toEqual(before);
  });
});

describe('check --read-data on a local repository', () => {
  it('passes on a clean repository and reports a damaged pack file as verify_failed', async () => {
    const target: ResticTarget = {
      repository: path.join(TMP, 'local-repo'),
      password: 'local repository password',
      cache_dir: path.join(TMP, 'cache'),
    };
    await roundTrip(target, 'local');
    expect(await checkRepository(target, { read_data_subset: '100%' })).toEqual({ status: 'ok' });

    // The largest pack (the photo's data): a few bytes in its middle flipped.
    const data = path.join(TMP, 'local-repo', 'data');
    const packs: { file: string; size: number }[] = [];
    for (const entry of await readdir(data, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) {
        const file = path.join(entry.parentPath, entry.name);
        packs.push({ file, size: (await stat(file)).size });
      }
    const pack = packs.sort((a, b) => b.size - a.size)[0]!;
    const handle = await open(pack.file, 'r+');
    const at = Math.floor(pack.size / 2);
    const bytes = Buffer.alloc(16);
    await handle.read(bytes, 0, 16, at);
    await handle.write(
      bytes.map((b) => b ^ 0xff),
      0,
      16,
      at,
    );
    await handle.close();

    // Metadata alone does not see it; reading the data does.
    expect(await checkRepository(target)).toEqual({ status: 'ok' });
    const r = await checkRepository(target, { read_data_subset: '100%' });
    expect(r).toMatchObject({
      status: 'failed',
      error: { kind: 'verify_failed', message: 'The repository check found damaged data.' },
    });
  });
});
