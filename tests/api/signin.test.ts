import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** Login, authlogs, logout, token expiry and password change. */
let t: TestApp;
let now = Date.now();
const TTL = 3600;

beforeAll(async () => {
  t = await buildTestApp({ tokenTtlSeconds: TTL }, { clock: () => now });
});
afterAll(() => t.close());

const login = (email: string, password: string, query = '', headers = {}) =>
  t.call('POST', `/api/v1/users/login${query}`, { body: { email, password }, headers });
const me = (user: { id: number }, token: string) =>
  t.call('GET', `/api/v1/users/${user.id}`, { token });

describe('login', () => {
  let user: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    [user, admin] = await Promise.all([t.user(), t.user({ admin: true })]);
  });

  it('answers exactly {User:{id,is_admin,plan_id},Token}', async () => {
    const res = await login(user.email, user.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['Token', 'User']);
    expect(body.User).toEqual({ id: user.id, is_admin: false, plan_id: 1 });
    expect(body.Token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await me(user, body.Token)).statusCode).toBe(200);
    const adminBody = (await login(admin.email, admin.password)).json();
    expect(adminBody.User).toEqual({ id: admin.id, is_admin: true, plan_id: 1 });
  });

  it('takes the email in any case', async () => {
    expect((await login(user.email.toUpperCase(), user.password)).statusCode).toBe(200);
  });

  it('a wrong password and an unknown email get the same answer', async () => {
    const wrong = await login(user.email, 'not the password');
    const unknown = await login('nobody@example.com', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json().message).toBe('Invalid email or password');
  });

  it('a disabled account is refused with 403, but only with the right password', async () => {
    const disabled = await t.user();
    await t.app.services.users.update(disabled.id, { disabled: 1 });
    const res = await login(disabled.email, disabled.password);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This account is disabled');
    expect((await login(disabled.email, 'a wrong password')).statusCode).toBe(401);
    // Its earlier tokens stop working too.
    expect((await me(disabled, disabled.token)).statusCode).toBe(401);
  });

  it('records every attempt in authlogs with time, IP, user agent and outcome', async () => {
    const watched = await t.user();
    await login(watched.email, 'a wrong password', '', { 'user-agent': 'Probe/1.0' });
    const res = await t.call('GET', `/api/v1/authlogs/users/${watched.id}`, {
      token: watched.token,
    });
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json() as {
      data: { outcome: string; ip: string; user_agent: string; created_at: string }[];
      total: number;
    };
    expect(total).toBe(2);
    expect(data.map((d) => d.outcome)).toEqual(['bad_password', 'success']);
    expect(data[0]).toMatchObject({ ip: '127.0.0.1', user_agent: 'Probe/1.0' });
    expect(Date.parse(data[0]!.created_at)).not.toBeNaN();
    const filtered = await t.call(
      'GET',
      `/api/v1/authlogs/users/${watched.id}?outcome=success&order=ASC`,
      { token: watched.token },
    );
    expect(filtered.json().data.map((d: { outcome: string }) => d.outcome)).toEqual(['success']);
  });

  it('makes no API key at sign-in: its secret would never be shown, keys are minted on request', async () => {
    const fresh = await t.app.services.users.create({
      email: 'keyless@example.com',
      user_name: 'Keyless',
      password_hash: (await t.app.services.users.findById(user.id))!.password_hash,
      confirmed: true,
    });
    const res = await login('keyless@example.com', user.password);
    expect(res.statusCode).toBe(200);
    const token = (res.json() as { Token: string }).Token;
    const keys = await t.call('GET', `/api/v1/auth/keys/users/${fresh.id}`, { token });
    expect(keys.json()).toEqual({ data: [], total: 0 });
    const record = await t.call('GET', `/api/v1/users/${fresh.id}`, { token });
    expect(record.json().api_key).toBeNull();
  });
});

describe('tokens', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await t.user();
  });

  it('logout revokes the token it was called with, and only that one', async () => {
    const second = await t.login(user.email, user.password);
    const out = await t.call('POST', '/api/v1/users/logout', { token: second });
    expect(out.json()).toEqual({ ok: true });
    const after = await me(user, second);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('token revoked');
    expect((await me(user, user.token)).statusCode).toBe(200);
  });

  it("an expired token answers 401 'token expired'", async () => {
    const token = await t.login(user.email, user.password);
    now += (TTL - 1) * 1000;
    try {
      expect((await me(user, token)).statusCode).toBe(200);
      now += 2000;
      const res = await me(user, token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'token expired',
      });
      // A stale token does not block signing in again.
      const again = await login(user.email, user.password, '', {
        authorization: `Bearer ${token}`,
      });
      expect(again.statusCode).toBe(200);
    } finally {
      now -= (TTL + 1) * 1000;
    }
  });

  it('a forged, foreign or malformed token answers 401', async () => {
    const [header, payload] = user.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setJti('00000000-0000-4000-8000-000000000000')
      .setExpirationTime('1h')
      .sign(new Uint8Array(32));
    for (const token of [forged, foreign, 'not-a-jwt']) {
      const res = await me(user, token);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('invalid token');
    }
    // A token with alg "none" is not accepted either.
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect((await me(user, none)).statusCode).toBe(401);
  });
});

describe('password change', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await t.user();
  });

  it('needs the current password', async () => {
    const url = `/api/v1/users/${user.id}`;
    const missing = await t.call('PUT', url, {
      token: user.token,
      body: { password: 'a new password here' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ current_password: 'Current password is incorrect' });
    const wrong = await t.call('PUT', url, {
      token: user.token,
      body: { password: 'a new password here', current_password: 'a wrong password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(await t.login(user.email, user.password)).toBeTruthy();
  });

  it('revokes every other session; the one that changed it stays valid', async () => {
    const other = await t.login(user.email, user.password);
    const res = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { password: 'the changed password', current_password: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).not.toMatch(/password/);
    expect((await me(user, other)).statusCode).toBe(401);
    expect((await me(user, user.token)).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    user.password = 'the changed password';
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    expect((await t.lastMail(user.email))?.subject).toBe('Your Stackdeck password was changed');
  });
});
