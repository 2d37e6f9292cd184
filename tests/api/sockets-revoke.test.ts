import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { type LiveApp, closedBy, openSocket, refused, startLiveApp, stillOpen } from './liveApp';

/**
 * A browser's live socket lives no longer than the sign-in session of its token: logout, a
 * password change or reset, deleting or disabling the account, revoking the session close that
 * session's sockets at once (real
 * socket.io clients on a listening panel), and only those.
 */
let live: LiveApp;
let t: TestApp;
beforeAll(async () => {
  live = await startLiveApp();
  t = live.t;
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

describe('revoking a session closes its live sockets', () => {
  it('logout: the socket of that session closes, the same user elsewhere stays', async () => {
    const user = await t.user();
    const other = await t.login(user.email, user.password);
    const mine = await openSocket(live, user.token);
    const elsewhere = await openSocket(live, other);
    const gone = closedBy(mine);
    const res = await t.call('POST', '/api/v1/users/logout', { token: user.token });
    expect(res.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await stillOpen(elsewhere)).toBe(true);
    // The revoked token opens no new socket.
    expect(await refused(live.browserSocket(user.token))).toBe('token revoked');
  });

  it('password change: every other session closes, the one that changed it stays', async () => {
    const user = await t.user();
    const admin = await t.user({ admin: true });
    const second = await t.login(user.email, user.password);
    const acting = await t.actAs(admin.token, user.id);
    const changer = await openSocket(live, user.token);
    const other = await openSocket(live, second);
    const impersonation = await openSocket(live, acting);
    const bystander = await openSocket(live, admin.token);
    const gone = [closedBy(other), closedBy(impersonation)];
    const res = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { current_password: user.password, password: 'another long password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await stillOpen(changer)).toBe(true);
    expect(await stillOpen(bystander)).toBe(true);
  });

  it('password reset by emailed code: every session closes', async () => {
    const user = await t.user();
    const socket = await openSocket(live, user.token);
    const gone = closedBy(socket);
    const { id } = (await t.call('GET', `/api/v1/users?em=${user.email}`)).json() as {
      id: string;
    };
    const code = await t.codeIn(user.email);
    const reset = await t.call('POST', '/api/v1/users/password', {
      body: { id, code, password: 'a brand new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  it('deleting the account: its sockets close', async () => {
    const user = await t.user();
    const socket = await openSocket(live, user.token);
    const gone = closedBy(socket);
    const res = await t.call('DELETE', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { password: user.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  it('an admin disabling the account (every session revoked): its sockets close', async () => {
    const [user, admin] = await Promise.all([t.user(), t.user({ admin: true })]);
    const socket = await openSocket(live, user.token);
    const gone = closedBy(socket);
    const res = await t.call('PATCH', `/api/v1/admin/users?uid=${user.id}`, {
      token: admin.token,
      body: { state: 'disabled' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  it('the holder revoking the session: its sockets close, the others stay', async () => {
    const user = await t.user();
    const other = await t.login(user.email, user.password);
    const mine = await openSocket(live, user.token);
    const elsewhere = await openSocket(live, other);
    const { sessionId } = await t.app.services.sessions.verify(other);
    const gone = closedBy(elsewhere);
    const res = await t.call('DELETE', `/api/v1/sessions/${sessionId}/users/${user.id}`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await stillOpen(mine)).toBe(true);
  });
});
