import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sqliteHandleOf } from '../../server/db/database';
import { type TestApp, type TestUser, buildTestApp, dialect } from './helpers';

/**
 * The per-request caller check costs no database round trip when nothing changed (issue 9), and
 * every change that alters the answer is seen on the very next request: the caller cache
 * (server/auth/callerCache.ts) is dropped in-process by each of them.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
});
afterAll(() => t.close());

/**
 * Every SQL statement the panel runs, whichever layer runs it: on SQLite the better-sqlite3
 * statements (Kysely and the prepared hot-path queries both end there), on PostgreSQL the pg
 * client's queries.
 */
const statements: string[] = [];
let restore: (() => void) | null = null;
function recordQueries() {
  statements.length = 0;
  if (restore) return;
  if (dialect === 'sqlite') {
    const proto = Object.getPrototypeOf(sqliteHandleOf(t.app.db)!.prepare('select 1')) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const originals = (['all', 'get', 'run', 'iterate'] as const).map((name) => {
      const original = proto[name]!;
      proto[name] = function (this: { source: string }, ...args: unknown[]) {
        statements.push(this.source);
        return original.apply(this, args);
      };
      return [name, original] as const;
    });
    restore = () => originals.forEach(([name, original]) => (proto[name] = original));
  } else {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const [config] = args;
      statements.push(
        typeof config === 'string' ? config : String((config as { text?: string })?.text),
      );
      return original.apply(this, args);
    };
    restore = () => (proto.query = original);
  }
}
afterEach(() => {
  restore?.();
  restore = null;
});

/** Statements that read or write what a caller is resolved from. */
const callerQueries = () =>
  statements.filter((text) => /\b(sessions|users|api_keys|user_photos)\b/i.test(text));

const me = (u: TestUser, token = u.token) => t.call('GET', `/api/v1/users/${u.id}`, { token });

async function mint(u: TestUser) {
  const res = await t.call('POST', `/api/v1/auth/gen/users/${u.id}`, {
    token: u.token,
    body: { password: u.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { api_key, api_secret } = res.json() as { api_key: string; api_secret: string };
  return { api_key, api_secret };
}

const withKey = (u: TestUser, key: { api_key: string; api_secret: string }) =>
  t.call('GET', `/api/v1/users/${u.id}`, {
    headers: { 'x-api-key': key.api_key, 'x-api-secret': key.api_secret },
  });

describe('an unchanged caller', () => {
  it('is read from the database once: the next read of the session runs no such query', async () => {
    const user = await t.user();
    const token = await t.login(user.email, user.password);
    recordQueries();
    expect((await me(user, token)).statusCode).toBe(200);
    // The counter sees the lookup when there is one to see.
    expect(callerQueries().some((text) => /\bsessions\b/.test(text))).toBe(true);
    recordQueries();
    const again = await me(user, token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: user.id, email: user.email });
    expect(callerQueries()).toEqual([]);
  });

  it('through an API key: no query on the next call, and the secret is still checked', async () => {
    const user = await t.user();
    const key = await mint(user);
    expect((await withKey(user, key)).statusCode).toBe(200);
    recordQueries();
    expect((await withKey(user, key)).statusCode).toBe(200);
    expect(callerQueries()).toEqual([]);
    const wrong = await withKey(user, { ...key, api_secret: `${key.api_secret.slice(1)}x` });
    expect(wrong.statusCode).toBe(401);
    expect((await withKey(user, key)).statusCode).toBe(200);
  });
});

describe('a change is seen on the very next request', () => {
  /** A user whose token and API key have just been used (both cached). */
  async function warm() {
    const user = await t.user();
    const key = await mint(user);
    expect((await me(user)).statusCode).toBe(200);
    expect((await withKey(user, key)).statusCode).toBe(200);
    expect((await me(user)).statusCode).toBe(200);
    return { user, key };
  }

  it('logout', async () => {
    const { user } = await warm();
    expect((await t.call('POST', '/api/v1/users/logout', { token: user.token })).statusCode).toBe(
      200,
    );
    expect((await me(user)).statusCode).toBe(401);
  });

  it('revoking the session from another one', async () => {
    const { user } = await warm();
    const other = await t.login(user.email, user.password);
    const sessions = await t.call('GET', `/api/v1/sessions/users/${user.id}`, { token: other });
    const target = (sessions.json() as { data: { id: string; current: boolean }[] }).data.find(
      (s) => !s.current,
    )!;
    const res = await t.call('DELETE', `/api/v1/sessions/${target.id}/users/${user.id}`, {
      token: other,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
    expect((await me(user, other)).statusCode).toBe(200);
  });

  it('an admin disabling the account: token and API key', async () => {
    const { user, key } = await warm();
    const res = await t.call('PATCH', `/api/v1/admin/users?uid=${user.id}`, {
      token: admin.token,
      body: { state: 'disabled' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
    expect((await withKey(user, key)).statusCode).toBe(401);
  });

  it('a password change: the old API key', async () => {
    const { user, key } = await warm();
    const res = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { current_password: user.password, password: 'another long password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await withKey(user, key)).statusCode).toBe(401);
  });

  it('revoking the API key', async () => {
    const { user, key } = await warm();
    const keys = await t.call('GET', `/api/v1/auth/keys/users/${user.id}`, { token: user.token });
    const [row] = (keys.json() as { data: { id: number }[] }).data;
    const res = await t.call('DELETE', `/api/v1/auth/keys/${row!.id}/users/${user.id}`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await withKey(user, key)).statusCode).toBe(401);
  });

  it('a role change', async () => {
    const { user } = await warm();
    const adminOnly = () =>
      t.call('GET', '/api/v1/admin/users', { token: user.token }).then((r) => r.statusCode);
    expect(await adminOnly()).toBe(403);
    await t.app.services.users.update(user.id, { is_admin: 1 });
    expect(await adminOnly()).toBe(200);
    await t.app.services.users.update(user.id, { is_admin: 0 });
    expect(await adminOnly()).toBe(403);
  });

  it('a plan change', async () => {
    const { user, key } = await warm();
    await t.app.services.users.update(user.id, { plan_id: 2 });
    expect((await me(user)).json().plan_id).toBe(2);
    expect((await withKey(user, key)).json().plan_id).toBe(2);
  });

  it('a profile change and a new key are in the record read from the caller', async () => {
    const { user } = await warm();
    const put = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { user_name: 'Renamed' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await me(user)).json().user_name).toBe('Renamed');
    const key = await mint(user);
    expect((await me(user)).json().api_key).toBe(key.api_key);
  });

  it('deleting the account: token and API key', async () => {
    const { user, key } = await warm();
    const res = await t.call('DELETE', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { password: user.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
    expect((await withKey(user, key)).statusCode).toBe(401);
  });

  it('an admin losing the role: their impersonation token', async () => {
    const boss = await t.user({ admin: true });
    const { user } = await warm();
    const acting = await t.actAs(boss.token, user.id);
    expect((await me(user, acting)).statusCode).toBe(200);
    await t.app.services.users.update(boss.id, { is_admin: 0 });
    expect((await me(user, acting)).statusCode).toBe(401);
  });
});
