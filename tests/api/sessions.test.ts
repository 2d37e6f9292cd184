import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from './helpers';
import { type LiveApp, closedBy, openSocket, refused, startLiveApp, stillOpen } from './liveApp';

/**
 * The account holder's active sign-in sessions (issue 8, finding 4): listed with where they
 * started, revoked one by one or all but this one. A revoked session's token answers 401 and its
 * live sockets close at once (real socket.io clients), the others stay.
 */
let live: LiveApp;
let t: TestApp;
beforeAll(async () => {
  live = await startLiveApp();
  t = live.t;
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

interface Listed {
  id: string;
  created_at: string;
  expires_at: string;
  ip: string;
  user_agent: string;
  current: boolean;
  by_admin: boolean;
}

const list = async (u: TestUser, token = u.token) => {
  const res = await t.call('GET', `/api/v1/sessions/users/${u.id}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Listed[]; total: number };
};

const me = (u: TestUser, token = u.token) =>
  t.call('GET', `/api/v1/users/${u.id}`, { token }).then((r) => r.statusCode);

/** Signs in with a user agent of its own, so the sessions tell apart. */
async function loginFrom(u: TestUser, userAgent: string, ip = '127.0.0.1') {
  const res = await t.call('POST', '/api/v1/users/login', {
    body: { email: u.email, password: u.password },
    headers: { 'user-agent': userAgent },
    ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Token: string }).Token;
}

describe('listing the active sessions', () => {
  it('shows every live session of the holder with its origin, this one marked', async () => {
    const user = await t.user();
    const phone = await loginFrom(user, 'Mozilla/5.0 (iPhone) Mobile Safari', '203.0.113.7');
    const { data, total } = await list(user);
    expect(total).toBe(2);
    expect(data.map((s) => s.current).sort()).toEqual([false, true]);
    const other = data.find((s) => !s.current)!;
    expect(other).toMatchObject({
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (iPhone) Mobile Safari',
      by_admin: false,
    });
    expect(Date.parse(other.expires_at)).toBeGreaterThan(Date.parse(other.created_at));
    expect(Object.keys(other).sort()).toEqual(
      ['by_admin', 'created_at', 'current', 'expires_at', 'id', 'ip', 'user_agent'].sort(),
    );
    // Seen from the phone, the phone's session is the current one.
    const fromPhone = await list(user, phone);
    expect(fromPhone.data.find((s) => s.current)!.id).toBe(other.id);
  });

  it('leaves out revoked sessions and those of other users; marks an admin acting', async () => {
    const [user, stranger, admin] = await Promise.all([
      t.user(),
      t.user(),
      t.user({ admin: true }),
    ]);
    const gone = await t.login(user.email, user.password);
    await t.call('POST', '/api/v1/users/logout', { token: gone });
    await t.actAs(admin.token, user.id);
    const { data } = await list(user);
    expect(data).toHaveLength(2);
    expect(data.filter((s) => s.by_admin)).toHaveLength(1);
    const theirs = await list(stranger);
    expect(theirs.total).toBe(1);
    expect(theirs.data.map((s) => s.id)).not.toContain(data[0]!.id);
  });
});

describe('revoking one session', () => {
  it('its token answers 401 and its socket closes; this session stays connected', async () => {
    const user = await t.user();
    const laptop = await loginFrom(user, 'Laptop browser');
    const mine = await openSocket(live, user.token);
    const theirs = await openSocket(live, laptop);
    const target = (await list(user)).data.find((s) => !s.current)!;
    const gone = closedBy(theirs);
    const res = await t.call('DELETE', `/api/v1/sessions/${target.id}/users/${user.id}`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: target.id });
    expect(await gone).toBe('io server disconnect');
    expect(await stillOpen(mine)).toBe(true);
    expect(await me(user, laptop)).toBe(401);
    expect(await me(user)).toBe(200);
    expect(await refused(live.browserSocket(laptop))).toBe('token revoked');
    expect((await list(user)).data.map((s) => s.id)).not.toContain(target.id);
    // Written to the account's activity log.
    const log = await t.call('GET', `/api/v1/accntactivity/users/${user.id}`, {
      token: user.token,
    });
    expect(log.body).toContain('Signed out a session');
  });

  it('revoking this session signs this browser out', async () => {
    const user = await t.user();
    const socket = await openSocket(live, user.token);
    const current = (await list(user)).data.find((s) => s.current)!;
    const gone = closedBy(socket);
    const res = await t.call('DELETE', `/api/v1/sessions/${current.id}/users/${user.id}`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await me(user)).toBe(401);
  });

  it("another user's session, a revoked or an unknown one answer 404 and change nothing", async () => {
    const [user, stranger] = await Promise.all([t.user(), t.user()]);
    const theirs = (await list(stranger)).data[0]!;
    const foreign = await t.call('DELETE', `/api/v1/sessions/${theirs.id}/users/${user.id}`, {
      token: user.token,
    });
    const unknown = await t.call(
      'DELETE',
      `/api/v1/sessions/00000000-0000-4000-8000-000000000000/users/${user.id}`,
      { token: user.token },
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    expect(await me(stranger)).toBe(200);
    // Naming the other user in {uid} is a foreign id too.
    const named = await t.call('DELETE', `/api/v1/sessions/${theirs.id}/users/${stranger.id}`, {
      token: user.token,
    });
    expect(named.statusCode).toBe(404);
    expect(await me(stranger)).toBe(200);
    const bad = await t.call('DELETE', `/api/v1/sessions/not-a-uuid/users/${user.id}`, {
      token: user.token,
    });
    expect(bad.statusCode).toBe(404);
    const old = await t.login(user.email, user.password);
    const oldId = (await list(user, old)).data.find((s) => s.current)!.id;
    await t.call('POST', '/api/v1/users/logout', { token: old });
    const again = await t.call('DELETE', `/api/v1/sessions/${oldId}/users/${user.id}`, {
      token: user.token,
    });
    expect(again.statusCode).toBe(404);
  });

  it('an admin, directly or acting, can neither list nor revoke the sessions', async () => {
    const [user, admin] = await Promise.all([t.user(), t.user({ admin: true })]);
    const acting = await t.actAs(admin.token, user.id);
    const id = (await list(user)).data[0]!.id;
    for (const token of [admin.token, acting]) {
      const listed = await t.call('GET', `/api/v1/sessions/users/${user.id}`, { token });
      const revoked = await t.call('DELETE', `/api/v1/sessions/${id}/users/${user.id}`, {
        token,
      });
      const others = await t.call('DELETE', `/api/v1/sessions/users/${user.id}`, { token });
      expect([listed.statusCode, revoked.statusCode, others.statusCode]).toEqual([403, 403, 403]);
    }
    expect(await me(user)).toBe(200);
  });
});

describe('signing out every other session', () => {
  it('closes the other sessions and their sockets, keeps this one', async () => {
    const [user, bystander] = await Promise.all([t.user(), t.user()]);
    const second = await t.login(user.email, user.password);
    const third = await t.login(user.email, user.password);
    const mine = await openSocket(live, user.token);
    const others = [await openSocket(live, second), await openSocket(live, third)];
    const watching = await openSocket(live, bystander.token);
    const gone = others.map(closedBy);
    const res = await t.call('DELETE', `/api/v1/sessions/users/${user.id}`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await stillOpen(mine)).toBe(true);
    expect(await stillOpen(watching)).toBe(true);
    expect([await me(user, second), await me(user, third), await me(user)]).toEqual([
      401, 401, 200,
    ]);
    const { data } = await list(user);
    expect(data).toHaveLength(1);
    expect(data[0]!.current).toBe(true);
  });
});
