import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from './helpers';
import { type LiveApp, connected, refused, startLiveApp } from './liveApp';

/**
 * An admin disables an account (spec: PATCH admin/users?uid with a state body) and enables it
 * again (issue 8, finding 4): disabling revokes every session of the account, so its live sockets
 * close at once, its tokens and API keys are refused and it cannot sign in; enabling lets it
 * sign in again. Both are in the account's activity log with the admin as actor.
 */
let live: LiveApp;
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  live = await startLiveApp();
  t = live.t;
  admin = await t.user({ admin: true });
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

const closed = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

async function openSocket(token: string) {
  const socket = live.browserSocket(token);
  await connected(socket);
  return socket;
}

const setState = (uid: number, state: 'enabled' | 'disabled', token = admin.token) =>
  t.call('PATCH', `/api/v1/admin/users?uid=${uid}`, { token, body: { state } });

const signIn = (u: TestUser) =>
  t.call('POST', '/api/v1/users/login', { body: { email: u.email, password: u.password } });

const me = (u: TestUser, token = u.token) =>
  t.call('GET', `/api/v1/users/${u.id}`, { token }).then((r) => r.statusCode);

async function apiKeyOf(u: TestUser) {
  const res = await t.call('POST', `/api/v1/auth/gen/users/${u.id}`, {
    token: u.token,
    body: { password: u.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { api_key, api_secret } = res.json() as { api_key: string; api_secret: string };
  return () =>
    t
      .call('GET', `/api/v1/users/${u.id}`, {
        headers: { 'x-api-key': api_key, 'x-api-secret': api_secret },
      })
      .then((r) => r.statusCode);
}

const listed = async (uid: number) => {
  const res = await t.call('GET', '/api/v1/admin/users?perPage=500', { token: admin.token });
  const { data } = res.json() as { data: { id: number; disabled: boolean }[] };
  return data.find((u) => u.id === uid)!;
};

describe('disabling an account', () => {
  it('closes its sockets, refuses its tokens and API keys, and signing in answers 403', async () => {
    const user = await t.user();
    const second = await t.login(user.email, user.password);
    const acting = await t.actAs(admin.token, user.id);
    const withKey = await apiKeyOf(user);
    expect(await withKey()).toBe(200);
    const sockets = [
      await openSocket(user.token),
      await openSocket(second),
      await openSocket(acting),
    ];
    const adminSocket = await openSocket(admin.token);
    const gone = sockets.map(closed);

    const res = await setState(user.id, 'disabled');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: user.id, disabled: true });

    expect(await Promise.all(gone)).toEqual(Array(3).fill('io server disconnect'));
    expect(adminSocket.connected).toBe(true);
    expect([await me(user), await me(user, second), await me(user, acting)]).toEqual([
      401, 401, 401,
    ]);
    expect(await withKey()).toBe(401);
    expect(await refused(live.browserSocket(second))).toMatch(/revoked|disabled/);
    const signin = await signIn(user);
    expect(signin.statusCode).toBe(403);
    expect(signin.json()).toMatchObject({ message: 'This account is disabled' });
    expect((await listed(user.id)).disabled).toBe(true);
    // Acting as a disabled account is refused too.
    const actAs = await t.call('POST', `/api/v1/admin/act-as/users/${user.id}`, {
      token: admin.token,
    });
    expect(actAs.statusCode).toBe(403);
  });

  it('enabling lets the account sign in again (old tokens stay revoked)', async () => {
    const user = await t.user();
    const withKey = await apiKeyOf(user);
    expect((await setState(user.id, 'disabled')).statusCode).toBe(200);
    const res = await setState(user.id, 'enabled');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: user.id, disabled: false });
    expect(await me(user)).toBe(401);
    const signin = await signIn(user);
    expect(signin.statusCode, signin.body).toBe(200);
    const token = (signin.json() as { Token: string }).Token;
    expect(await me(user, token)).toBe(200);
    // The API key was never revoked: it works again with the account.
    expect(await withKey()).toBe(200);
    expect((await listed(user.id)).disabled).toBe(false);
  });

  it('is written to the account activity log with the admin as actor', async () => {
    const user = await t.user();
    await setState(user.id, 'disabled');
    await setState(user.id, 'enabled');
    const rows = await t.app.db
      .selectFrom('account_activity')
      .select(['message', 'actor_id'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.message, r.actor_id])).toEqual([
      ['Account disabled by an admin', admin.id],
      ['Account enabled by an admin', admin.id],
    ]);
  });

  it('setting the state it already has changes and logs nothing more', async () => {
    const user = await t.user();
    expect((await setState(user.id, 'enabled')).statusCode).toBe(200);
    expect(await me(user)).toBe(200);
    const rows = await t.app.db
      .selectFrom('account_activity')
      .select('message')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('who may disable whom', () => {
  it('an admin cannot disable their own account', async () => {
    const res = await setState(admin.id, 'disabled');
    expect(res.statusCode).toBe(403);
    expect(await me(admin)).toBe(200);
  });

  it('an admin may disable another admin (and enable them again)', async () => {
    const other = await t.user({ admin: true });
    const socket = await openSocket(other.token);
    const gone = closed(socket);
    expect((await setState(other.id, 'disabled')).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await me(other)).toBe(401);
    expect((await signIn(other)).statusCode).toBe(403);
    // A disabled admin's own call is refused before any guard.
    expect((await setState(admin.id, 'disabled', other.token)).statusCode).toBe(401);
    expect((await setState(other.id, 'enabled')).statusCode).toBe(200);
    expect((await signIn(other)).statusCode).toBe(200);
  });

  it('admin staff, users, an acting admin and nobody are refused', async () => {
    const [user, staff, victim] = await Promise.all([t.user(), t.user({ staff: true }), t.user()]);
    const acting = await t.actAs(admin.token, user.id);
    for (const token of [user.token, staff.token, acting])
      expect((await setState(victim.id, 'disabled', token)).statusCode).toBe(403);
    expect(
      (
        await t.call('PATCH', `/api/v1/admin/users?uid=${victim.id}`, {
          body: { state: 'disabled' },
        })
      ).statusCode,
    ).toBe(401);
    expect(await me(victim)).toBe(200);
  });

  it('an unknown user answers 404; a bad state or uid 400', async () => {
    expect((await setState(999999, 'disabled')).statusCode).toBe(404);
    const badUid = await t.call('PATCH', '/api/v1/admin/users?uid=x', {
      token: admin.token,
      body: { state: 'disabled' },
    });
    expect(badUid.statusCode).toBe(400);
    const badState = await t.call('PATCH', `/api/v1/admin/users?uid=${admin.id}`, {
      token: admin.token,
      body: { state: 'off' },
    });
    expect(badState.statusCode).toBe(400);
    expect(Object.keys((badState.json() as { errors: object }).errors)).toEqual(['state']);
  });
});
