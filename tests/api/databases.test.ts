import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * Databases and database users through the API with a fake agent whose MariaDB lives in
 * memory: statuses, grants checked against the server, userdel, the cross-server list, the
 * collation list, and that no password or hash ever comes back. tests/system/databases.test.ts
 * runs the real MariaDB.
 */
let live: LiveApp;
let owner: TestUser;
let other: TestUser;
let agent: FakeAgent;
const dbs = new Map<string, string>();
const users = new Map<string, { hash: string | null; databases: string[] }>();
/** Every argument the agent saw, to prove no plain password reached it. */
const seen: unknown[] = [];

function fakeMariadbOps() {
  const log = (a: unknown) => void seen.push(a);
  return {
    'mariadb.db.set': async (a: { name: string; collation: string }) => {
      log(a);
      dbs.set(a.name, a.collation);
      return { set: true as const };
    },
    'mariadb.db.rename': async (a: { from: string; to: string; collation: string }) => {
      log(a);
      dbs.delete(a.from);
      dbs.set(a.to, a.collation);
      return { tables: 0 };
    },
    'mariadb.db.drop': async (a: { name: string }) => {
      log(a);
      return { dropped: dbs.delete(a.name) };
    },
    'mariadb.user.set': async (a: {
      name: string;
      password_hash: string | null;
      databases: string[];
    }) => {
      log(a);
      const hash = a.password_hash ?? users.get(a.name)?.hash ?? null;
      users.set(a.name, { hash, databases: a.databases });
      return { set: true as const };
    },
    'mariadb.user.drop': async (a: { name: string }) => {
      log(a);
      return { dropped: users.delete(a.name) };
    },
    'mariadb.list': async () => ({
      databases: [...dbs].map(([name, collation]) => ({ name, collation })),
      users: [...users].map(([name, u]) => ({ name, databases: u.databases })),
    }),
    'mariadb.collations': async () => [
      { collation: 'utf8mb4_unicode_ci', charset: 'utf8mb4', default: false },
      { collation: 'utf8mb4_general_ci', charset: 'utf8mb4', default: true },
    ],
  };
}

const tail = () => `servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, body?: unknown) =>
  live.t.call(method, `/api/v1/${url}`, { token: owner.token, body });
const PASSWORD = 'a very long secret password';

beforeAll(async () => {
  live = await startLiveApp();
  [owner, other] = await Promise.all([live.t.user(), live.t.user()]);
  agent = await startFakeAgent(live, owner, fakeMariadbOps());
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('databases and users', () => {
  it('creates a database, a user with a grant, lists and removes the grant', async () => {
    const db = await call('POST', `databases/${tail()}`, {
      name: 'shop_db',
      collation: 'utf8mb4_unicode_ci',
    });
    expect(db.statusCode, db.body).toBe(201);
    const dbId = (db.json() as { id: number }).id;
    expect(dbs.get('shop_db')).toBe('utf8mb4_unicode_ci');

    const dup = await call('POST', `databases/${tail()}`, { name: 'shop_db' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors).toHaveProperty('name');

    const user = await call('POST', `dbusers/${tail()}`, {
      name: 'shop_app',
      password: PASSWORD,
      databases: [dbId],
    });
    expect(user.statusCode, user.body).toBe(201);
    const userId = (user.json() as { id: number }).id;
    expect(users.get('shop_app')?.databases).toEqual(['shop_db']);
    expect(users.get('shop_app')?.hash).toMatch(/^\*[0-9A-F]{40}$/);

    const list = await call('GET', `dbusers/${tail()}`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('shop_app');
    for (const res of [user, list]) {
      expect(res.body).not.toContain(PASSWORD);
      expect(res.body).not.toContain(users.get('shop_app')!.hash!);
    }
    expect(JSON.stringify(seen)).not.toContain(PASSWORD);

    const mine = await call('GET', `databases/users/${owner.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain('shop_db');

    // A user the server does not have is refused at the form's field, nothing changed.
    const unknown = await call('PATCH', `databases/${dbId}/${tail()}?userdel=999999`);
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().errors).toEqual({ userdel: 'No database user #999999 on this server' });
    expect(users.get('shop_app')?.databases).toEqual(['shop_db']);

    const del = await call('PATCH', `databases/${dbId}/${tail()}?userdel=${userId}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(users.get('shop_app')?.databases).toEqual([]);

    const gone = await call('DELETE', `dbusers/${userId}/${tail()}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    expect(users.has('shop_app')).toBe(false);
  });

  it('changes a user: an empty password keeps the hash, a new one replaces it, the name stays', async () => {
    const db = await call('POST', `databases/${tail()}`, { name: 'blog_db' });
    const dbId = (db.json() as { id: number }).id;
    const user = await call('POST', `dbusers/${tail()}`, { name: 'blog_app', password: PASSWORD });
    const userId = (user.json() as { id: number }).id;
    const first = users.get('blog_app')!.hash;

    const read = await call('GET', `dbusers/${userId}/${tail()}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ name: 'blog_app', databases: [] });
    expect(read.json()).not.toHaveProperty('password_hash');

    const kept = await call('PUT', `dbusers/${userId}/${tail()}`, {
      password: '',
      databases: [dbId],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ status: 'active', databases: [dbId] });
    expect(users.get('blog_app')).toEqual({ hash: first, databases: ['blog_db'] });

    const changed = await call('PUT', `dbusers/${userId}/${tail()}`, {
      password: 'another long secret password',
      databases: [],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(users.get('blog_app')!.hash).toMatch(/^\*[0-9A-F]{40}$/);
    expect(users.get('blog_app')!.hash).not.toBe(first);
    expect(users.get('blog_app')!.databases).toEqual([]);

    const short = await call('PUT', `dbusers/${userId}/${tail()}`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toHaveProperty('password');
    const renamed = await call('PUT', `dbusers/${userId}/${tail()}`, { name: 'other_app' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().errors).toHaveProperty('name');
  });

  it("refuses a grant on another tenant's database as absent", async () => {
    const theirs = await startFakeAgent(live, other, fakeMariadbOps());
    try {
      const made = await live.t.call(
        'POST',
        `/api/v1/databases/servers/${theirs.server.id}/users/${other.id}`,
        { token: other.token, body: { name: 'their_db', collation: 'utf8mb4_unicode_ci' } },
      );
      expect(made.statusCode, made.body).toBe(201);
      const res = await call('POST', `dbusers/${tail()}`, {
        name: 'thief',
        password: PASSWORD,
        databases: [(made.json() as { id: number }).id],
      });
      // As absent as a database that does not exist, refused at the form's field.
      const id = (made.json() as { id: number }).id;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        errors: { databases: `No database #${id} on this server` },
      });
      expect(users.has('thief')).toBe(false);
    } finally {
      await theirs.disconnect();
    }
  });

  it("lists collations from the server, only for the caller's servers", async () => {
    const res = await call('GET', `databases/collations?server=${agent.server.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('utf8mb4_general_ci');
    const stranger = await live.t.call(
      'GET',
      `/api/v1/databases/collations?server=${agent.server.id}`,
      { token: other.token },
    );
    expect(stranger.statusCode).toBe(404);
  });
});
