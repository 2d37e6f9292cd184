import { generateKeyPairSync } from 'node:crypto';
import { verify } from 'unixcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshFingerprint } from '../../resources/agent/fingerprint';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * System users and SSH keys on the server-managed kind, with a fake agent whose users and
 * authorized_keys live in memory: the password reaches the server only as its hash and the
 * panel drops the hash once the server has it; a user or key written while the server is
 * offline waits (202) and is made when it is back; the read-back shows drift.
 * tests/system/servers-accounts.test.ts runs the real useradd, chpasswd and sshd.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
/** The fake server: its users with their shadow hash, and each user's key fingerprints. */
const users = new Map<string, { hash: string | null; quota_hard: number; quota_soft: number }>();
const keys = new Map<string, Set<string>>();
const PASSWORD = 'a long system password';

function fakeAccountOps() {
  return {
    'sysusers.check': (a: { user_name: string }) =>
      users.has(a.user_name)
        ? { available: false, reason: `A user ${a.user_name} exists on the server` }
        : { available: true, reason: null },
    'sysusers.create': (a: {
      user_name: string;
      password_hash: string | null;
      quota_hard: number;
      quota_soft: number;
    }) => {
      const had = users.get(a.user_name);
      users.set(a.user_name, {
        hash: a.password_hash ?? had?.hash ?? null,
        quota_hard: a.quota_hard,
        quota_soft: a.quota_soft,
      });
      return {
        user_name: a.user_name,
        uid: 1001,
        home: `/home/${a.user_name}`,
        shell: '/bin/bash',
        quota_hard: null,
        quota_soft: null,
      };
    },
    'sysusers.delete': (a: { user_name: string }) => {
      users.delete(a.user_name);
      return { deleted: true };
    },
    'sysusers.list': () =>
      [...users].map(([user_name, u]) => ({
        user_name,
        uid: 1001,
        home: `/home/${user_name}`,
        shell: '/bin/bash',
        quota_hard: u.quota_hard,
        quota_soft: u.quota_soft,
      })),
    'pubkeys.add': (a: { user_name: string; key: string }) => {
      const key = sshFingerprint(a.key);
      keys.set(a.user_name, (keys.get(a.user_name) ?? new Set()).add(key.fingerprint));
      return { ...key, comment: '' };
    },
    'pubkeys.remove': (a: { user_name: string; fingerprint: string }) => ({
      removed: keys.get(a.user_name)?.delete(a.fingerprint) ?? false,
    }),
    'pubkeys.list': (a: { user_name: string }) =>
      [...(keys.get(a.user_name) ?? [])].map((fingerprint) => ({
        fingerprint,
        type: 'ssh-ed25519',
        comment: '',
      })),
  };
}

function newKey() {
  const raw = generateKeyPairSync('ed25519')
    .publicKey.export({ format: 'der', type: 'spki' })
    .subarray(-32);
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} t`;
}

const path = (resource: string, id?: number) =>
  `/api/v1/${resource}${id === undefined ? '' : `/${id}`}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });
const storedHash = async (id: number) =>
  (
    await live.t.app.db
      .selectFrom('sysusers')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).password_hash;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeAccountOps());
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('system users on the managed kind', () => {
  it('sends the server a SHA-512 hash of the password, never the password, and keeps no hash once active', async () => {
    const res = await call('POST', path('sysusers'), { user_name: 'alice', password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ user_name: 'alice', status: 'active', error: null });
    expect(res.body).not.toContain('password_hash');
    const hash = users.get('alice')!.hash!;
    expect(hash).toMatch(/^\$6\$/);
    expect(verify(PASSWORD, hash)).toBe(true);
    expect(JSON.stringify(agent.calls)).not.toContain(PASSWORD);
    expect(await storedHash(res.json().id)).toBeNull();
  });

  it('waits for an offline server, keeping only the hash, and makes the user when it is back', async () => {
    await agent.disconnect();
    const res = await call('POST', path('sysusers'), { user_name: 'bob', password: PASSWORD });
    expect(res.statusCode).toBe(202);
    expect(res.json().status).toBe('pending');
    const id = res.json().id as number;
    const kept = await storedHash(id);
    expect(kept).toMatch(/^\$6\$/);
    expect(kept).not.toContain(PASSWORD);
    // The password changes again before the server is back: the newest one wins.
    const changed = await call('PUT', path('sysusers', id), { password: `${PASSWORD} 2` });
    expect(changed.statusCode).toBe(202);

    await agent.reconnect();
    await expect
      .poll(async () => (await call('GET', path('sysusers', id))).json().status)
      .toBe('active');
    expect(verify(`${PASSWORD} 2`, users.get('bob')!.hash!)).toBe(true);
    expect(await storedHash(id)).toBeNull();
  });

  it('shows drift with ?sync=true: a user removed by hand is missing', async () => {
    users.delete('bob');
    const res = await call('GET', `${path('sysusers')}?sync=true`);
    const byName = Object.fromEntries(
      (res.json().data as { user_name: string; drift: string | null }[]).map((u) => [
        u.user_name,
        u.drift,
      ]),
    );
    expect(byName).toEqual({ alice: null, bob: 'missing' });
  });

  it('deletes a user and its keys', async () => {
    const key = await call('POST', path('pubkeys'), {
      label: 'laptop',
      user_name: 'alice',
      key: newKey(),
    });
    expect(key.statusCode, key.body).toBe(201);
    const list = (await call('GET', path('sysusers'))).json().data as {
      id: number;
      user_name: string;
    }[];
    const alice = list.find((u) => u.user_name === 'alice')!;
    const del = await call('DELETE', path('sysusers', alice.id));
    expect(del.json()).toEqual({ id: alice.id, status: 'deleted' });
    expect(users.has('alice')).toBe(false);
    expect((await call('GET', path('pubkeys'))).json().data).toEqual([]);
  });
});

describe('SSH keys on the managed kind', () => {
  it('adds a key while the server is offline and puts it there when it is back', async () => {
    await agent.disconnect();
    const key = newKey();
    const res = await call('POST', path('pubkeys'), { label: 'offline', user_name: 'root', key });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'pending', added_by: { id: owner.id } });
    expect(res.body).not.toContain(key.split(' ')[1]!);
    await agent.reconnect();
    const { fingerprint } = sshFingerprint(key);
    await expect.poll(() => keys.get('root')?.has(fingerprint) ?? false).toBe(true);
    await expect
      .poll(async () => (await call('GET', path('pubkeys'))).json().data[0]?.status)
      .toBe('active');
  });

  it('shows a key taken off by hand as missing with ?sync=true', async () => {
    keys.get('root')!.clear();
    const res = await call('GET', `${path('pubkeys')}?sync=true`);
    expect(res.json().data.map((k: { drift: string | null }) => k.drift)).toEqual(['missing']);
  });
});
