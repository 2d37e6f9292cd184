import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRepository, listSnapshots } from '../../features/backups/agentRepoMaintenance';
import { withTargetFiles } from '../../features/backups/agentTargetFiles';
import { findTarget } from '../../features/backups/serverLoaders';
import type { SheetLine } from '../../features/backups/serverRecovery';
import { storeFor, targetFor } from '../../features/backups/serverStores';
import { type SshServer, startSshd } from '../system/support/backups-storage';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * The account's recovery key (features/backups/serverRecovery.ts) with real restic on the panel's
 * own storage: made and shown once, it opens the repository with plain `restic`; a new key
 * replaces it there; its state never shows it; an admin acting as the user cannot make one.
 */
const exec = promisify(execFile);
let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let repoPath = '';

const path = (uid: number) => `/api/v1/backup-recovery-key/users/${uid}`;
/** Plain restic, as a user without Stackdeck runs it. */
const snapshots = (password: string) =>
  exec('restic', ['-r', repoPath, '--no-cache', 'snapshots', '--json'], {
    env: { PATH: process.env.PATH, RESTIC_PASSWORD: password },
  });

beforeAll(async () => {
  t = await buildTestApp();
  owner = await t.user();
  admin = await t.user({ admin: true });
  const server = await t.app.services.servers.create(owner.id, { name: 'web1' });
  const store = await storeFor(t.app, server, null);
  repoPath = t.app.services.backupRepositories.localPath(store.repository_uuid!);
  const made = await ensureRepository({
    repository: repoPath,
    password: t.app.services.box.open(store.password),
    cache_dir: `${t.config.dataDir}/restic-cache`,
  });
  expect(made.status).toBe('ok');
  await t.app.db
    .updateTable('backup_stores')
    .set({ initialized_at: new Date().toISOString() })
    .where('id', '=', store.id)
    .execute();
}, 60_000);
afterAll(() => t.close());

describe('backup recovery key', () => {
  it('none at first', async () => {
    const res = await t.call('GET', path(owner.id), { token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created_at: null, repositories: 1, covered: 0 });
  });

  it('is shown once and opens the repository with plain restic', async () => {
    const res = await t.call('POST', path(owner.id), { token: owner.token });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { key: string; sheet: { covered: boolean; repository: string }[] };
    expect(body.key).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){7}$/);
    expect(body.sheet).toHaveLength(1);
    expect(body.sheet[0]!.covered).toBe(true);
    expect(body.sheet[0]!.repository).toMatch(/^rest:http/);
    await expect(snapshots(body.key)).resolves.toBeTruthy();
    const status = await t.call('GET', path(owner.id), { token: owner.token });
    expect(status.json()).toMatchObject({ repositories: 1, covered: 1 });
    expect(status.body).not.toContain(body.key);
  }, 60_000);

  it('a new key replaces the last one in the repository', async () => {
    const first = (await t.call('POST', path(owner.id), { token: owner.token })).json() as {
      key: string;
    };
    const second = (await t.call('POST', path(owner.id), { token: owner.token })).json() as {
      key: string;
    };
    await expect(snapshots(second.key)).resolves.toBeTruthy();
    await expect(snapshots(first.key)).rejects.toThrow(/wrong password|no key found/i);
  }, 90_000);

  it('an admin acting as the user cannot make one; another user cannot see its state', async () => {
    const acting = await t.actAs(admin.token, owner.id);
    expect((await t.call('POST', path(owner.id), { token: acting })).statusCode).toBe(403);
    const stranger = await t.user();
    expect((await t.call('GET', path(owner.id), { token: stranger.token })).statusCode).toBe(404);
  });
});

/**
 * On SFTP storage (a dedicated sshd on 127.0.0.1, as root: skipped elsewhere): the panel reaches
 * the repository through ssh with the account's key, which the user authorized, and the pinned
 * host key, and adds the recovery key there as on its own storage.
 */
describe.skipIf(process.getuid?.() !== 0 || !existsSync('/usr/sbin/sshd'))(
  'backup recovery key on SFTP storage',
  () => {
    let sshd: SshServer;
    let dir = '';
    beforeAll(async () => {
      dir = await mkdtemp('/var/tmp/stackdeck-recovery-sftp-');
      sshd = await startSshd(dir);
    }, 30_000);
    afterAll(async () => {
      await sshd?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('opens the repository with the recovery key, as plain restic would', async () => {
      const user = await t.user();
      const storage = `/api/v1/backup-storage/users/${user.id}`;
      const publicKey = (await t.call('GET', storage, { token: user.token })).json()
        .sftp_public_key as string;
      // The user authorizes the account's key on their storage.
      await appendFile(sshd.authorizedKeysFile, `${publicKey}\n`);
      const added = await t.call('PATCH', storage, {
        token: user.token,
        body: {
          kind: 'sftp',
          name: 'nas',
          host: `127.0.0.1:${sshd.port}`,
          user: 'root',
          path: `${dir}/repos`,
          known_host: `# 127.0.0.1:${sshd.port} SSH-2.0-OpenSSH\n[127.0.0.1]:${sshd.port} ${sshd.hostKey}\n`,
        },
      });
      expect(added.statusCode, added.body).toBe(200);
      const targetId = (added.json().targets as { id: number }[])[0]!.id;
      const server = await t.app.services.servers.create(user.id, { name: 'web-sftp' });
      const target = (await findTarget(t.app.db, user.id, targetId))!;
      const { store, target: opTarget } = await targetFor(t.app, server, target);
      // The repository as a server's first backup makes it (the agent's op path).
      const cached = { ...opTarget, cache_dir: `${t.config.dataDir}/restic-cache` };
      const made = await withTargetFiles({ target: cached }, (a) => ensureRepository(a.target));
      expect(made).toEqual({ status: 'ok', created: true });
      await t.app.db
        .updateTable('backup_stores')
        .set({ initialized_at: new Date().toISOString() })
        .where('id', '=', store.id)
        .execute();

      const res = await t.call('POST', path(user.id), { token: user.token });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json() as { key: string; sheet: SheetLine[] };
      expect(body.sheet).toEqual([
        {
          server: server.name,
          storage: 'nas',
          repository: `sftp:root@127.0.0.1:${dir}/repos/stackdeck-${server.uuid}`,
          covered: true,
          note: null,
        },
      ]);
      // The recovery key opens it; a wrong one does not.
      const withKey = (password: string) =>
        withTargetFiles({ target: { ...cached, password } }, (a) => listSnapshots(a.target));
      expect(await withKey(body.key)).toMatchObject({ status: 'ok', snapshots: [] });
      expect(await withKey('not the recovery key at all')).toMatchObject({
        status: 'failed',
        error: { kind: 'wrong_password' },
      });
      // The panel left no key file behind.
      expect(readdirSync(tmpdir()).filter((n) => n.startsWith('stackdeck-sftp-'))).toEqual([]);
    }, 90_000);
  },
);
