import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../server/auth/hash';
import { totpCodeAt } from '../../server/auth/totp';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * API keys for API clients: minted only with the password (and the second factor when it is
 * on), listed with their last use, revoked one by one, all revoked by a password change or
 * reset; no secret ever in a response.
 */
let t: TestApp;
/** The panel's clock, which TOTP codes are computed against. */
const now = Date.now();
beforeAll(async () => {
  t = await buildTestApp({}, { clock: () => now });
});
afterAll(() => t.close());

interface Minted {
  id: number;
  api_key: string;
  api_secret: string;
  label: string;
  created_at: string;
}
interface Listed {
  id: number;
  api_key: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

const login = (email: string, password: string) =>
  t.call('POST', '/api/v1/users/login', { body: { email, password } });
const mintCall = (u: TestUser, body?: object, token = u.token) =>
  t.call('POST', `/api/v1/auth/gen/users/${u.id}`, { token, body });
async function mint(u: TestUser, label?: string): Promise<Minted> {
  const res = await mintCall(u, { password: u.password, ...(label ? { label } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Minted;
}
const list = async (u: TestUser) => {
  const res = await t.call('GET', `/api/v1/auth/keys/users/${u.id}`, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Listed[]; total: number };
};
const withKey = (key: string, secret: string, id: number, ip?: string) =>
  t.call('GET', `/api/v1/users/${id}`, {
    headers: { 'x-api-key': key, 'x-api-secret': secret },
    ip,
  });

describe('minting a key', () => {
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([t.user(), t.user()]);
  });

  it('signing in makes no key: a new account has none', async () => {
    expect(await list(user)).toEqual({ data: [], total: 0 });
    expect(
      (await t.call('GET', `/api/v1/users/${user.id}`, { token: user.token })).json(),
    ).toMatchObject({
      api_key: null,
    });
  });

  it('asks for the current password: a stolen token alone mints nothing', async () => {
    const none = await mintCall(user);
    expect(none.statusCode).toBe(400);
    expect(Object.keys(none.json().errors)).toEqual(['password']);
    const wrong = await mintCall(user, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ password: 'Wrong password' });
    expect(await list(user)).toEqual({ data: [], total: 0 });
  });

  it('authenticates with X-Api-Key and X-Api-Secret; the secret is shown once', async () => {
    const first = await mint(user, 'deploy script');
    expect(Object.keys(first).sort()).toEqual([
      'api_key',
      'api_secret',
      'created_at',
      'id',
      'label',
    ]);
    expect(first.label).toBe('deploy script');
    const ok = await withKey(first.api_key, first.api_secret, user.id);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().api_key).toBe(first.api_key);
    expect(ok.body).not.toContain(first.api_secret);
    const row = await t.app.db
      .selectFrom('api_keys')
      .selectAll()
      .where('api_key', '=', first.api_key)
      .executeTakeFirst();
    expect(row?.secret_hash).toBe(sha256(first.api_secret));

    // A second key is added; the first keeps working.
    const second = await mint(user);
    expect(second.api_key).not.toBe(first.api_key);
    expect((await withKey(first.api_key, first.api_secret, user.id)).statusCode).toBe(200);
    expect((await withKey(second.api_key, first.api_secret, user.id)).statusCode).toBe(401);
    expect((await withKey(second.api_key, second.api_secret, user.id)).statusCode).toBe(200);
    // The key reaches the holder's records only.
    expect((await withKey(second.api_key, second.api_secret, other.id)).statusCode).toBe(404);
    // Half a pair is no credential.
    const keyOnly = await t.call('GET', `/api/v1/users/${user.id}`, {
      headers: { 'x-api-key': second.api_key },
    });
    expect(keyOnly.statusCode).toBe(401);
    // The record names the newest key.
    const record = await t.call('GET', `/api/v1/users/${user.id}`, { token: user.token });
    expect(record.json().api_key).toBe(second.api_key);
  });

  it('an admin acting as the user, or naming them, cannot mint, list or revoke', async () => {
    const admin = await t.user({ admin: true });
    const acting = await t.actAs(admin.token, user.id);
    const key = await mint(user);
    for (const token of [acting, admin.token]) {
      expect((await mintCall(user, { password: user.password }, token)).statusCode).toBe(403);
      const listed = await t.call('GET', `/api/v1/auth/keys/users/${user.id}`, { token });
      expect(listed.statusCode).toBe(403);
      const revoked = await t.call('DELETE', `/api/v1/auth/keys/${key.id}/users/${user.id}`, {
        token,
      });
      expect(revoked.statusCode).toBe(403);
    }
    expect((await withKey(key.api_key, key.api_secret, user.id)).statusCode).toBe(200);
  });
});

describe('minting with two-factor sign-in on', () => {
  it('emailed codes: asks for a code from GET users/{uid}/otp', async () => {
    const user = await t.user();
    await t.call('GET', `/api/v1/users/${user.id}/otp`, { token: user.token });
    await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: {
        two_factor: true,
        otp_code: await t.codeIn(user.email),
        current_password: user.password,
      },
    });
    const noCode = await mintCall(user, { password: user.password });
    expect(noCode.statusCode).toBe(400);
    expect(Object.keys(noCode.json().errors)).toEqual(['otp']);
    const wrong = await mintCall(user, { password: user.password, otp: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ otp: 'Invalid or expired code' });
    await t.call('GET', `/api/v1/users/${user.id}/otp`, { token: user.token });
    const code = await t.codeIn(user.email);
    const ok = await mintCall(user, { password: user.password, otp: code });
    expect(ok.statusCode, ok.body).toBe(200);
    // The code worked once.
    expect((await mintCall(user, { password: user.password, otp: code })).statusCode).toBe(400);
  });

  it('authenticator app: asks for a TOTP code, each code once', async () => {
    const user = await t.user();
    const enrol = await t.call('POST', `/api/v1/users/${user.id}/totp`, { token: user.token });
    const { secret } = enrol.json() as { secret: string };
    const enabled = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: {
        two_factor: true,
        two_factor_method: 'totp',
        otp_code: totpCodeAt(secret, now - 30_000),
        current_password: user.password,
      },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect((await mintCall(user, { password: user.password })).statusCode).toBe(400);
    const code = totpCodeAt(secret, now);
    const ok = await mintCall(user, { password: user.password, otp: code });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await mintCall(user, { password: user.password, otp: code });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual({ otp: 'Invalid or expired code' });
  });
});

describe('the list of keys', () => {
  it('shows each key with its creation and last use (time and address), no secret', async () => {
    const user = await t.user();
    const a = await mint(user, 'ci');
    const b = await mint(user, 'backup');
    const fresh = await list(user);
    expect(fresh.total).toBe(2);
    // Newest first.
    expect(fresh.data.map((k) => k.id)).toEqual([b.id, a.id]);
    expect(fresh.data[1]).toEqual({
      id: a.id,
      api_key: a.api_key,
      label: 'ci',
      created_at: a.created_at,
      last_used_at: null,
      last_used_ip: null,
    });
    expect(JSON.stringify(fresh)).not.toContain(a.api_secret);
    expect(JSON.stringify(fresh)).not.toContain(sha256(a.api_secret));

    expect((await withKey(a.api_key, a.api_secret, user.id, '203.0.113.7')).statusCode).toBe(200);
    const used = (await list(user)).data.find((k) => k.id === a.id)!;
    expect(used.last_used_ip).toBe('203.0.113.7');
    expect(Date.parse(used.last_used_at!)).toBeGreaterThan(Date.now() - 60_000);
    // Recorded at most once a minute: an immediate second use changes nothing.
    expect((await withKey(a.api_key, a.api_secret, user.id, '203.0.113.8')).statusCode).toBe(200);
    expect((await list(user)).data.find((k) => k.id === a.id)).toEqual(used);
  });

  it('revokes one key: it stops working at once, the others stay', async () => {
    const user = await t.user();
    const other = await t.user();
    const a = await mint(user);
    const b = await mint(user);
    const theirs = await mint(other);
    const res = await t.call('DELETE', `/api/v1/auth/keys/${a.id}/users/${user.id}`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: a.id });
    expect((await withKey(a.api_key, a.api_secret, user.id)).statusCode).toBe(401);
    expect((await withKey(b.api_key, b.api_secret, user.id)).statusCode).toBe(200);
    expect((await list(user)).data.map((k) => k.id)).toEqual([b.id]);
    // Again, or another user's key: 404, and the other user's key still works.
    for (const id of [a.id, theirs.id, 99_999_999]) {
      const missing = await t.call('DELETE', `/api/v1/auth/keys/${id}/users/${user.id}`, {
        token: user.token,
      });
      expect(missing.statusCode).toBe(404);
    }
    expect((await withKey(theirs.api_key, theirs.api_secret, other.id)).statusCode).toBe(200);
  });
});

describe('a password change or reset revokes every key of the account', () => {
  it('password change', async () => {
    const user = await t.user();
    const other = await t.user();
    const a = await mint(user);
    const theirs = await mint(other);
    const changed = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { current_password: user.password, password: 'another long password' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await withKey(a.api_key, a.api_secret, user.id)).statusCode).toBe(401);
    expect(await list(user)).toEqual({ data: [], total: 0 });
    expect((await withKey(theirs.api_key, theirs.api_secret, other.id)).statusCode).toBe(200);
  });

  it('password reset by emailed code', async () => {
    const user = await t.user();
    const a = await mint(user);
    const { id } = (await t.call('GET', `/api/v1/users?em=${user.email}`)).json() as { id: string };
    const code = await t.codeIn(user.email);
    const reset = await t.call('POST', '/api/v1/users/password', {
      body: { id, code, password: 'a brand new password' },
    });
    expect(reset.json()).toEqual({ valid: true, changed: true });
    expect((await withKey(a.api_key, a.api_secret, user.id)).statusCode).toBe(401);
    const token = (await login(user.email, 'a brand new password')).json().Token as string;
    const listed = await t.call('GET', `/api/v1/auth/keys/users/${user.id}`, { token });
    expect(listed.json()).toEqual({ data: [], total: 0 });
  });
});

describe('secrets never leave the server', () => {
  it('no response carries a hash, a TOTP secret or an API secret', async () => {
    const user = await t.user();
    const admin = await t.user({ admin: true });
    await t.call('POST', `/api/v1/users/${user.id}/totp`, { token: user.token });
    const key = await mint(user);
    const row = await t.app.services.users.findById(user.id);
    const responses = await Promise.all([
      t.call('GET', `/api/v1/users/${user.id}`, { token: user.token }),
      t.call('PUT', `/api/v1/users/${user.id}`, { token: user.token, body: { City: 'Oslo' } }),
      t.call('GET', `/api/v1/admin/users?perPage=500`, { token: admin.token }),
      t.call('GET', `/api/v1/users/${user.id}`, { token: admin.token }),
      t.call('GET', `/api/v1/auth/keys/users/${user.id}`, { token: user.token }),
      login(user.email, user.password),
    ]);
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      const text = res.body;
      for (const leak of [
        'password_hash',
        'api_secret',
        'secret_hash',
        'totp_secret',
        'totp_pending_secret',
        'totp_last_step',
        row!.password_hash,
        sha256(key.api_secret),
        key.api_secret,
        row!.totp_pending_secret!,
        user.password,
      ]) {
        expect(text).not.toContain(leak);
      }
    }
  });
});
