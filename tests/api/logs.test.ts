import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinoLoggerOptions } from 'fastify/types/logger';
import { loggerOptions } from '../../server/app';
import { totpCodeAt } from '../../server/auth/totp';
import { type TestApp, buildTestApp } from './helpers';

/**
 * The panel's real pino logger at trace level, captured: whatever the sign-in flows do, no
 * token, secret, password or code reaches the log.
 */
const lines: string[] = [];
let t: TestApp;
let now = Date.now();
beforeAll(async () => {
  const options = loggerOptions('trace') as PinoLoggerOptions;
  t = await buildTestApp(
    {},
    {
      clock: () => now,
      logger: { ...options, stream: { write: (line: string) => void lines.push(line) } },
    },
  );
});
afterAll(() => t.close());

/** `secret` as a whole word of the log: codes are six digits, so not inside longer numbers. */
function inLog(secret: string): boolean {
  const text = lines.join('');
  if (!/^\d+$/.test(secret)) return text.includes(secret);
  return new RegExp(`(?<![\\d.])${secret}(?!\\d)`).test(text);
}

describe('logs', () => {
  it('hold no token, secret, password or code', async () => {
    const secrets: string[] = [];
    const email = 'logged@example.com';
    const password = 'a password for the log test';
    secrets.push(password);

    // Register and confirm with the mailed code.
    const reg = await t.call('POST', '/api/v1/users', {
      body: { email, password, user_name: 'Logged' },
    });
    expect(reg.statusCode).toBe(201);
    const { id, uuid } = (await t.app.services.users.findByEmail(email))!;
    const confirmCode = await t.codeIn(email);
    secrets.push(confirmCode);
    await t.call('POST', '/api/v1/users/confirm', { body: { uuid, code: confirmCode } });

    // Sign in, make an API key, use it.
    let token = await t.login(email, password);
    secrets.push(token);
    const keys = (
      await t.call('POST', `/api/v1/auth/gen/users/${id}`, { token, body: { password } })
    ).json() as {
      api_key: string;
      api_secret: string;
    };
    secrets.push(keys.api_secret);
    await t.call('GET', `/api/v1/users/${id}`, {
      headers: { 'x-api-key': keys.api_key, 'x-api-secret': keys.api_secret },
    });

    // Emailed two-factor: enable it with a mailed code, sign in with ?otp=.
    await t.call('GET', `/api/v1/users/${id}/otp`, { token });
    const verifyCode = await t.codeIn(email);
    secrets.push(verifyCode);
    await t.call('PUT', `/api/v1/users/${id}`, {
      token,
      body: { two_factor: true, otp_code: verifyCode, current_password: password },
    });
    await t.call('POST', '/api/v1/users/login', { body: { email, password } });
    const loginCode = await t.codeIn(email);
    secrets.push(loginCode);
    const second = await t.call('POST', `/api/v1/users/login?otp=${loginCode}`, {
      body: { email, password },
    });
    expect(second.statusCode).toBe(200);
    token = second.json().Token;
    secrets.push(token);

    // TOTP enrolment and a TOTP sign-in.
    const totp = (await t.call('POST', `/api/v1/users/${id}/totp`, { token })).json() as {
      secret: string;
    };
    secrets.push(totp.secret);
    const enableCode = totpCodeAt(totp.secret, now);
    await t.call('PUT', `/api/v1/users/${id}`, {
      token,
      body: {
        two_factor: true,
        two_factor_method: 'totp',
        otp_code: enableCode,
        current_password: password,
      },
    });
    const totpCode = totpCodeAt(totp.secret, now + 30_000);
    secrets.push(enableCode, totpCode);
    const totpLogin = await t.call('POST', `/api/v1/users/login?otp=${totpCode}`, {
      body: { email, password },
    });
    expect(totpLogin.statusCode).toBe(200);

    // Password change, forgot and reset.
    const changed = 'the changed log password';
    secrets.push(changed);
    await t.call('PUT', `/api/v1/users/${id}`, {
      token,
      body: { password: changed, current_password: password },
    });
    const { id: requestId } = (await t.call('GET', `/api/v1/users?em=${email}`)).json() as {
      id: string;
    };
    const resetCode = await t.codeIn(email);
    const reset = 'the reset log password';
    secrets.push(resetCode, reset);
    await t.call('POST', '/api/v1/users/password', {
      body: { id: requestId, code: resetCode, password: reset },
    });

    // A failed sign-in and an expired token are logged too, without their secrets.
    await t.call('POST', '/api/v1/users/login', { body: { email, password: 'wrong-password-x' } });
    secrets.push('wrong-password-x');
    now += 2 * 86_400_000;
    await t.call('GET', `/api/v1/users/${id}`, { token: totpLogin.json().Token });

    // The log did record the requests, with ?otp= masked.
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(30);
    expect(text).toContain('"url":"/api/v1/users/login?otp=***"');
    expect(text).toContain('mail queued');
    for (const secret of secrets) expect(inLog(secret), `log holds ${secret}`).toBe(false);
    for (const word of ['authorization', 'x-api-secret', 'password_hash', 'Bearer'])
      expect(text.toLowerCase()).not.toContain(word.toLowerCase());
  });
});
