import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GB, targetSchema } from '../../features/backups/schemas';
import { meterUsage } from '../../features/backups/serverCredit';
import { findTarget } from '../../features/backups/serverLoaders';
import { targetFor } from '../../features/backups/serverStores';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { insertPolicy } from './backupPolicyRow';

/**
 * Backup storage and credit (features/backups): the account's S3 and SFTP storages (secrets
 * sealed, never answered; not removed while used), the repository of a (server, storage) and the
 * `target` an op gets, the credit an admin sets or changes with a ledger line, and the daily
 * metering of the panel's storage.
 */
let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let staff: TestUser;

/** Host keys as ssh-keyscan prints them (an ed25519 and an RSA key). */
const ED_HOST = 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
const RSA_HOST =
  'AAAAB3NzaC1yc2EAAAADAQABAAABAQC7n1hCqvS0U3E5Rk6Jd8XoM6p2v9W0kq3j0s8x6w1ZbQ4d3zJ5lYvT2mNc8Hq0a1RrX9t4yPwK7eLrQ2uV3fG6hJk';
const storage = (uid = owner.id) => `/api/v1/backup-storage/users/${uid}`;
const credit = (uid = owner.id) => `/api/v1/backup-credit/users/${uid}`;
const s3 = {
  kind: 's3',
  name: 'offsite',
  endpoint: 's3.example.com',
  bucket: 'my-backups/panel',
  region: 'eu-west-1',
  access_key_id: 'AKIAEXAMPLE9876',
  secret_access_key: 'the secret access key',
};

beforeAll(async () => {
  t = await buildTestApp();
  owner = await t.user();
  admin = await t.user({ admin: true });
  staff = await t.user({ staff: true });
});
afterAll(() => t.close());

describe('backup storages', () => {
  let targetId: number;

  it('are added with their secret sealed and never answered', async () => {
    const res = await t.call('PATCH', storage(), { token: owner.token, body: s3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('the secret access key');
    const [target] = res.json().targets;
    expect(target).toMatchObject({
      kind: 's3',
      name: 'offsite',
      location: 's3:https://s3.example.com/my-backups/panel',
      hint: 'Access key ending 9876',
      used_bytes: 0,
    });
    targetId = target.id;
    const row = await findTarget(t.app.db, owner.id, targetId);
    expect(row?.credentials).not.toContain('secret');
    expect(JSON.parse(t.app.services.box.open(row!.credentials))).toMatchObject({
      secret_access_key: 'the secret access key',
    });
  });

  it('refuse a bad SFTP host key line at the field', async () => {
    const res = await t.call('PATCH', storage(), {
      token: owner.token,
      body: {
        kind: 'sftp',
        name: 'box',
        host: 'box.example:23',
        user: 'backup',
        path: '/srv/restic',
        known_host: 'not a key',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['known_host']);
    const ok = await t.call('PATCH', storage(), {
      token: owner.token,
      body: {
        kind: 'sftp',
        name: 'box',
        host: 'box.example:23',
        user: 'backup',
        path: '/srv/restic',
        known_host:
          '[box.example]:23 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const sftp = ok.json().targets.find((x: { kind: string }) => x.kind === 'sftp');
    // restic's `sftp:user@host:/path` (the agent refuses the URL form); the port goes to ssh.
    expect(sftp.location).toBe('sftp:backup@box.example:/srv/restic');
    expect(sftp.hint).toMatch(/^Host key ssh-ed25519 SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it("answer the account's SFTP public key, made once, never the private key or host keys", async () => {
    const scan = [
      '# nas.example:2222 SSH-2.0-OpenSSH_9.2p1',
      `[nas.example]:2222 ssh-ed25519 ${ED_HOST}`,
      '[nas.example]:2222 ssh-dss AAAAB3NzaC1kc3MAAACBAP',
      `[nas.example]:2222 ssh-rsa ${RSA_HOST}`,
    ].join('\n');
    const res = await t.call('PATCH', storage(), {
      token: owner.token,
      body: {
        kind: 'sftp',
        name: 'nas',
        host: 'nas.example:2222',
        user: 'restic',
        path: '/backups',
        known_host: scan,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const nas = res.json().targets.find((x: { name: string }) => x.name === 'nas');
    expect(nas).toMatchObject({ kind: 'sftp', location: 'sftp:restic@nas.example:/backups' });
    expect(nas.hint).toMatch(/^Host key ssh-ed25519 SHA256:\S{43} \(and 1 more\)$/);
    const got = await t.call('GET', storage(), { token: owner.token });
    expect(got.statusCode).toBe(200);
    const key: string = got.json().sftp_public_key;
    expect(key).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5[A-Za-z0-9+/]{48} stackdeck-backups$/);
    // The same key each time; another account has its own.
    expect((await t.call('GET', storage(), { token: owner.token })).json().sftp_public_key).toBe(
      key,
    );
    const other = await t.user();
    const theirs = await t.call('GET', storage(other.id), { token: other.token });
    expect(theirs.json().sftp_public_key).toMatch(/^ssh-ed25519 /);
    expect(theirs.json().sftp_public_key).not.toBe(key);
    for (const body of [res.body, got.body]) {
      expect(body).not.toContain('PRIVATE KEY');
      expect(body).not.toContain(ED_HOST);
      expect(body).not.toContain(RSA_HOST);
    }
    // Sealed at rest.
    const row = await t.app.db
      .selectFrom('backup_ssh_keys')
      .selectAll()
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(row.private_key).not.toContain('PRIVATE KEY');
    expect(t.app.services.box.open(row.private_key)).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n/,
    );

    // The op's target: the repository in restic's form, the port, the key and the host keys.
    const server = await t.app.services.servers.create(owner.id, { name: 'web-sftp' });
    const target = (await findTarget(t.app.db, owner.id, nas.id))!;
    const made = await targetFor(t.app, server, target);
    expect(made.target).toEqual({
      repository: `sftp:restic@nas.example:/backups/stackdeck-${server.uuid}`,
      password: expect.any(String),
      sftp: {
        port: 2222,
        private_key: t.app.services.box.open(row.private_key),
        host_keys: [`ssh-ed25519 ${ED_HOST}`, `ssh-rsa ${RSA_HOST}`],
      },
    });
    // What every op with a target accepts.
    expect(targetSchema.safeParse(made.target).success).toBe(true);
  });

  it('refuse SFTP storage whose host does not look like one', async () => {
    const res = await t.call('PATCH', storage(), {
      token: owner.token,
      body: {
        kind: 'sftp',
        name: 'x',
        host: '-oProxyCommand',
        user: 'u',
        path: '/p',
        known_host: `ssh-ed25519 ${ED_HOST}`,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['host']);
  });

  it('hand an op its target: the panel storage over REST, S3 with its keys', async () => {
    const server = await t.app.services.servers.create(owner.id, { name: 'web1' });
    const panel = await targetFor(t.app, server, null);
    const uuid = panel.store.repository_uuid!;
    expect(panel.target.repository).toMatch(
      new RegExp(`^rest:http://${uuid}:[A-Za-z0-9_-]{43}@panel\\.test/restic/${uuid}/$`),
    );
    expect(panel.target.password.length).toBeGreaterThan(30);
    // The same store the next time: one repository per (server, storage).
    const again = await targetFor(t.app, server, null);
    expect(again.store.id).toBe(panel.store.id);
    expect(again.target).toEqual(panel.target);
    const row = (await findTarget(t.app.db, owner.id, targetId))!;
    const offsite = await targetFor(t.app, server, row);
    expect(offsite.target).toMatchObject({
      repository: `s3:https://s3.example.com/my-backups/panel/stackdeck-${server.uuid}`,
      env: {
        AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE9876',
        AWS_SECRET_ACCESS_KEY: 'the secret access key',
        AWS_DEFAULT_REGION: 'eu-west-1',
      },
    });
    // Its place cannot change now that it holds a repository.
    const moved = await t.call('PATCH', storage(), {
      token: owner.token,
      body: { ...s3, id: targetId, bucket: 'elsewhere' },
    });
    expect(moved.statusCode).toBe(409);

    // The daily metering: the panel repository's bytes, counted against the server's owner.
    fs.writeFileSync(
      path.join(t.app.services.backupRepositories.localPath(uuid), 'config'),
      'x'.repeat(5000),
    );
    await meterUsage(t.app);
    const seen = await t.call('GET', credit(), { token: owner.token });
    expect(seen.json().used_bytes).toBeGreaterThanOrEqual(5000);
    expect(seen.json().metered_at).not.toBeNull();
  });

  it('are not removed while a policy uses them', async () => {
    const server = await t.app.services.servers.create(owner.id, { name: 'web2' });
    await insertPolicy(t.app.db, {
      user_id: owner.id,
      server_id: server.id,
      database_id: 5,
      subject: 'db',
      target_id: targetId,
      keep_last: 1,
      keep_daily: 0,
      keep_weekly: 0,
      keep_monthly: 0,
      enabled: 0,
    });
    const res = await t.call('PATCH', storage(), {
      token: owner.token,
      body: { id: targetId, remove: true },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('A backup uses this storage');
    await t.app.db.deleteFrom('backup_policies').where('target_id', '=', targetId).execute();
    const gone = await t.call('PATCH', storage(), {
      token: owner.token,
      body: { id: targetId, remove: true },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().targets.map((x: { id: number }) => x.id)).not.toContain(targetId);
  });
});

describe('backup credit', () => {
  it('starts at the default allowance, without a ledger line', async () => {
    const fresh = await t.user();
    const read = await t.call('GET', credit(fresh.id), { token: fresh.token });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ credit_bytes: 10 * GB, used_bytes: 0, ledger: [] });
  });

  it('is set by an admin only, the difference a ledger line', async () => {
    const mine = await t.call('POST', `${credit()}?credit=5`, { token: owner.token });
    expect(mine.statusCode).toBe(403);
    expect(mine.json().message).toBe('Only an admin sets backup credit');
    const acting = await t.call('POST', `${credit()}?credit=5`, {
      token: await t.actAs(admin.token, owner.id),
    });
    expect(acting.statusCode).toBe(403);
    const set = await t.call('POST', `${credit()}?credit=5`, { token: admin.token });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ credit_bytes: 5 * GB });
    const lower = await t.call('POST', `${credit()}?credit=3`, { token: admin.token });
    expect(lower.json().credit_bytes).toBe(3 * GB);
    // From the default 10 GB: -5 GB, then -2 GB.
    expect(lower.json().ledger.map((l: { delta_bytes: number }) => l.delta_bytes)).toEqual([
      -2 * GB,
      -5 * GB,
    ]);
    expect(lower.json().ledger[0]).toMatchObject({
      reason: 'Credit set to 3 GB',
      by: expect.any(String),
    });
    const read = await t.call('GET', credit(), { token: staff.token });
    expect(read.statusCode).toBe(200);
    expect(read.json().credit_bytes).toBe(3 * GB);
  });

  it('is added and removed by an admin with a reason, never below nothing', async () => {
    const url = (type: string, uid = owner.id) =>
      `/api/v1/admin/backup-credit?uid=${uid}&type=${type}`;
    const add = await t.call('PATCH', url('add'), {
      token: admin.token,
      body: { gb: 2, reason: 'Goodwill' },
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json().credit_bytes).toBe(5 * GB);
    expect(add.json().ledger[0]).toMatchObject({ delta_bytes: 2 * GB, reason: 'Goodwill' });
    const tooMuch = await t.call('PATCH', url('remove'), {
      token: admin.token,
      body: { gb: 50, reason: 'Refund' },
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors.gb).toContain('remove at most');
    const removed = await t.call('PATCH', url('remove'), {
      token: admin.token,
      body: { gb: 1, reason: 'Refund' },
    });
    expect(removed.json().credit_bytes).toBe(4 * GB);
    const unknown = await t.call('PATCH', url('add', 999_999), {
      token: admin.token,
      body: { gb: 1, reason: 'Nobody' },
    });
    expect(unknown.statusCode).toBe(404);
    const noReason = await t.call('PATCH', url('add'), {
      token: admin.token,
      body: { gb: 1, reason: '' },
    });
    expect(noReason.statusCode).toBe(400);
  });
});
