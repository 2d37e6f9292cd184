import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../server/auth/hash';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** API key and secret for API clients; no secret ever in a response. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string) =>
  t.call('POST', '/api/v1/users/login', { body: { email, password } });

describe('API key and secret', () => {
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([t.user(), t.user()]);
  });

  const withKey = (key: string, secret: string, id = user.id) =>
    t.call('GET', `/api/v1/users/${id}`, {
      headers: { 'x-api-key': key, 'x-api-secret': secret },
    });

  it('authenticates with X-Api-Key and X-Api-Secret; regenerating invalidates the old secret', async () => {
    const gen = await t.call('POST', `/api/v1/auth/gen/users/${user.id}`, { token: user.token });
    expect(gen.statusCode).toBe(200);
    const first = gen.json() as { api_key: string; api_secret: string };
    expect(Object.keys(first).sort()).toEqual(['api_key', 'api_secret']);
    const ok = await withKey(first.api_key, first.api_secret);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().api_key).toBe(first.api_key);
    expect(ok.json().api_secret).toBeUndefined();
    const row = await t.app.services.users.findById(user.id);
    expect(row?.api_secret_hash).toBe(sha256(first.api_secret));

    const second = (
      await t.call('POST', `/api/v1/auth/gen/users/${user.id}`, { token: user.token })
    ).json() as { api_key: string; api_secret: string };
    expect(second.api_key).not.toBe(first.api_key);
    const old = await withKey(first.api_key, first.api_secret);
    expect(old.statusCode).toBe(401);
    expect((await withKey(second.api_key, first.api_secret)).statusCode).toBe(401);
    expect((await withKey(second.api_key, second.api_secret)).statusCode).toBe(200);
    // The key reaches the holder's records only.
    expect((await withKey(second.api_key, second.api_secret, other.id)).statusCode).toBe(404);
    // Half a pair is no credential.
    const keyOnly = await t.call('GET', `/api/v1/users/${user.id}`, {
      headers: { 'x-api-key': second.api_key },
    });
    expect(keyOnly.statusCode).toBe(401);
  });
});

describe('secrets never leave the server', () => {
  it('no response carries a hash, a TOTP secret or an API secret', async () => {
    const user = await t.user();
    const admin = await t.user({ admin: true });
    await t.call('POST', `/api/v1/users/${user.id}/totp`, { token: user.token });
    const row = await t.app.services.users.findById(user.id);
    const responses = await Promise.all([
      t.call('GET', `/api/v1/users/${user.id}`, { token: user.token }),
      t.call('PUT', `/api/v1/users/${user.id}`, { token: user.token, body: { City: 'Oslo' } }),
      t.call('GET', `/api/v1/admin/users?perPage=500`, { token: admin.token }),
      t.call('GET', `/api/v1/users/${user.id}`, { token: admin.token }),
      login(user.email, user.password),
    ]);
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      const text = res.body;
      for (const leak of [
        'password_hash',
        'api_secret',
        'totp_secret',
        'totp_pending_secret',
        'totp_last_step',
        row!.password_hash,
        row!.api_secret_hash!,
        row!.totp_pending_secret!,
        user.password,
      ]) {
        expect(text).not.toContain(leak);
      }
    }
  });
});
