import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../../server/auth/totp';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** The second sign-in step: a mailed one-time code, or a TOTP code (each code works once). */
let t: TestApp;
/** The panel's clock, which TOTP codes are computed against. */
const now = Date.now();

beforeAll(async () => {
  t = await buildTestApp({}, { clock: () => now });
});
afterAll(() => t.close());

const login = (email: string, password: string, query = '') =>
  t.call('POST', `/api/v1/users/login${query}`, { body: { email, password } });

describe('emailed one-time code (two_factor, method email)', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await t.user();
  });

  it('is enabled with a code from GET users/{uid}/otp', async () => {
    const url = `/api/v1/users/${user.id}`;
    const noPassword = await t.call('PUT', url, {
      token: user.token,
      body: { two_factor: true, otp_code: '123456' },
    });
    expect(noPassword.statusCode).toBe(400);
    expect(Object.keys(noPassword.json().errors)).toEqual(['current_password']);
    const noCode = await t.call('PUT', url, {
      token: user.token,
      body: { two_factor: true, current_password: user.password },
    });
    expect(noCode.statusCode).toBe(400);
    expect(Object.keys(noCode.json().errors)).toEqual(['otp_code']);
    const sent = await t.call('GET', `/api/v1/users/${user.id}/otp`, { token: user.token });
    expect(sent.json()).toEqual({ sent: true });
    const code = await t.codeIn(user.email);
    const res = await t.call('PUT', url, {
      token: user.token,
      body: { two_factor: true, otp_code: code, current_password: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ two_factor: true, two_factor_method: 'email' });
  });

  it('sign-in asks for the mailed code, accepts it once', async () => {
    const first = await login(user.email, user.password);
    expect(first.json()).toEqual({ otp_required: true, method: 'email' });
    const code = await t.codeIn(user.email);
    const wrong = await login(
      user.email,
      user.password,
      `?otp=${code === '000000' ? '111111' : '000000'}`,
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors).toEqual({ otp: 'Invalid or expired code' });
    const ok = await login(user.email, user.password, `?otp=${code}`);
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json()).sort()).toEqual(['Token', 'User']);
    const again = await login(user.email, user.password, `?otp=${code}`);
    expect(again.statusCode).toBe(401);
  });

  it('the code does not replace the password', async () => {
    await login(user.email, user.password);
    const code = await t.codeIn(user.email);
    const res = await login(user.email, 'a wrong password', `?otp=${code}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid email or password');
  });

  it('is disabled with the current password', async () => {
    const url = `/api/v1/users/${user.id}`;
    const wrong = await t.call('PUT', url, {
      token: user.token,
      body: { two_factor: false, current_password: 'nope nope nope' },
    });
    expect(wrong.statusCode).toBe(400);
    const res = await t.call('PUT', url, {
      token: user.token,
      body: { two_factor: false, current_password: user.password },
    });
    expect(res.json()).toMatchObject({ two_factor: false, two_factor_method: null });
    expect(Object.keys((await login(user.email, user.password)).json()).sort()).toEqual([
      'Token',
      'User',
    ]);
  });
});

describe('TOTP two-factor', () => {
  let user: TestUser;
  let secret: string;
  beforeAll(async () => {
    user = await t.user();
  });

  it('enrols with a secret and its QR code; the secret is stored sealed', async () => {
    const res = await t.call('POST', `/api/v1/users/${user.id}/totp`, { token: user.token });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { otpauth_url: string; qr: string; secret: string };
    secret = body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Stackdeck:/);
    expect(body.otpauth_url).toContain(`secret=${secret}`);
    expect(body.qr).toMatch(/^data:image\/png;base64,/);
    const row = await t.app.services.users.findById(user.id);
    expect(row?.totp_pending_secret).toMatch(/^v1:/);
    expect(row?.totp_pending_secret).not.toContain(secret);
    expect(t.app.services.box.open(row!.totp_pending_secret!)).toBe(secret);
    // Enrolling alone changes nothing at sign-in.
    expect(Object.keys((await login(user.email, user.password)).json())).toContain('Token');
  });

  it('is enabled by a PUT with a current code', async () => {
    const url = `/api/v1/users/${user.id}`;
    const valid = new Set([-30_000, 0, 30_000].map((d) => totpCodeAt(secret, now + d)));
    const wrongCode = ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
    const wrong = await t.call('PUT', url, {
      token: user.token,
      body: {
        two_factor: true,
        two_factor_method: 'totp',
        otp_code: wrongCode,
        current_password: user.password,
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({
      otp_code: 'The code does not match; check the authenticator app',
    });
    const res = await t.call('PUT', url, {
      token: user.token,
      body: {
        two_factor: true,
        two_factor_method: 'totp',
        otp_code: totpCodeAt(secret, now),
        current_password: user.password,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ two_factor: true, two_factor_method: 'totp' });
    const row = await t.app.services.users.findById(user.id);
    expect(row?.totp_secret).toMatch(/^v1:/);
    expect(row?.totp_secret).not.toContain(secret);
    expect(row?.totp_pending_secret).toBeNull();
    expect(JSON.stringify(res.json())).not.toContain(secret);
  });

  it('sign-in takes a TOTP code, each code once', async () => {
    const first = await login(user.email, user.password);
    expect(first.json()).toEqual({ otp_required: true, method: 'totp' });
    // The code used to enable TOTP is spent already.
    const enabling = await login(user.email, user.password, `?otp=${totpCodeAt(secret, now)}`);
    expect(enabling.statusCode).toBe(401);
    const next = totpCodeAt(secret, now + 30_000);
    const ok = await login(user.email, user.password, `?otp=${next}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().User.id).toBe(user.id);
    const replay = await login(user.email, user.password, `?otp=${next}`);
    expect(replay.statusCode).toBe(401);
  });

  it('a code from the wrong secret or far from now is refused', async () => {
    const far = await login(user.email, user.password, `?otp=${totpCodeAt(secret, now + 600_000)}`);
    expect(far.statusCode).toBe(401);
    const other = await login(
      user.email,
      user.password,
      `?otp=${totpCodeAt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', now + 60_000)}`,
    );
    expect(other.statusCode).toBe(401);
  });
});
