import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { loadConfig } from '../../server/config';
import { type TestApp, buildTestApp } from './helpers';

/**
 * Sign-in, OTP, register, confirm and reset calls: AUTH_RATE_LIMIT (5) a minute per client.
 * Calls that check a secret (sign-in, confirm, reset) count an account's failures per client
 * address (5 a minute), with a ceiling of 10 times that from all addresses together; a success
 * is never counted, so an attacker's failures never lock the owner out. Calls that send mail
 * (register, resend, forgot password, OTP mail) are limited per account too, whatever the client.
 * A client-supplied X-Forwarded-For changes nothing unless TRUST_PROXY is set.
 * Every test uses its own client addresses (TEST-NET ranges) and accounts, so counts never mix.
 */
const LIMIT = 5;
const CEILING = LIMIT * 10;
let t: TestApp;
let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;
const password = 'a long enough password';
let passwordHash: string;

interface Account {
  id: number;
  uuid: string;
  email: string;
  token: string;
}

/** A confirmed account made without any rate-limited call (its token issued directly). */
async function newAccount(confirmed = true): Promise<Account> {
  const row = await t.app.services.users.create({
    email: `limited-${randomUUID().slice(0, 8)}@example.com`,
    user_name: 'Limited',
    password_hash: passwordHash,
    confirmed,
  });
  const token = await t.app.services.sessions.issue(row.id, { ip: '192.0.2.9', userAgent: '' });
  return { id: row.id, uuid: row.uuid, email: row.email, token };
}

beforeAll(async () => {
  t = await buildTestApp({ authRateLimit: LIMIT });
  passwordHash = await hashPassword(password);
});
afterAll(() => t.close());

interface Request {
  url: string;
  body?: unknown;
  token?: string;
}

interface Limited {
  name: string;
  method: 'GET' | 'POST';
  /** Checks a secret: the account's failures are counted, its successes are not. */
  checksSecret?: boolean;
  /** The account holder's right call (for calls that check a secret). */
  right?: (a: Account) => Request;
  /** The n-th request of one client, naming a different account each time where it can. */
  perClient: (n: number, a: Account) => Request;
  /** The n-th request naming account `a`. */
  perAccount: (n: number, a: Account) => Request;
  /** What a call that is not refused answers: per client, and naming the account. */
  answers: { perClient: number; perAccount: number };
}

const other = (n: number) => `someone-${n}-${randomUUID().slice(0, 6)}@example.com`;

const LIMITED: Limited[] = [
  {
    name: 'login',
    answers: { perClient: 401, perAccount: 401 },
    method: 'POST',
    checksSecret: true,
    right: (a) => ({ url: '/api/v1/users/login', body: { email: a.email, password } }),
    perClient: (n) => ({ url: '/api/v1/users/login', body: { email: other(n), password } }),
    perAccount: (_, a) => ({
      url: '/api/v1/users/login',
      body: { email: a.email, password: 'a wrong password' },
    }),
  },
  {
    name: 'login second step (?otp=)',
    answers: { perClient: 401, perAccount: 401 },
    method: 'POST',
    checksSecret: true,
    right: (a) => ({ url: '/api/v1/users/login?otp=123456', body: { email: a.email, password } }),
    perClient: (n) => ({
      url: '/api/v1/users/login?otp=123456',
      body: { email: other(n), password },
    }),
    perAccount: (_, a) => ({
      url: '/api/v1/users/login?otp=123456',
      body: { email: a.email, password: 'a wrong password' },
    }),
  },
  {
    name: 'register',
    answers: { perClient: 201, perAccount: 201 },
    method: 'POST',
    perClient: (n) => ({
      url: '/api/v1/users',
      body: { email: other(n), password, user_name: 'Someone' },
    }),
    perAccount: (_, a) => ({
      url: '/api/v1/users',
      body: { email: a.email, password, user_name: 'Someone' },
    }),
  },
  {
    name: 'confirm',
    answers: { perClient: 400, perAccount: 400 },
    method: 'POST',
    checksSecret: true,
    perClient: () => ({
      url: '/api/v1/users/confirm',
      body: { uuid: randomUUID(), code: '123456' },
    }),
    perAccount: (_, a) => ({
      url: '/api/v1/users/confirm',
      body: { uuid: a.uuid, code: '123456' },
    }),
  },
  {
    name: 'confirmation email resend',
    answers: { perClient: 404, perAccount: 200 },
    method: 'GET',
    perClient: () => ({ url: `/api/v1/users/email?uuid=${randomUUID()}&resend=true` }),
    perAccount: (_, a) => ({ url: `/api/v1/users/email?uuid=${a.uuid}&resend=true` }),
  },
  {
    name: 'forgot password',
    answers: { perClient: 200, perAccount: 200 },
    method: 'GET',
    perClient: (n) => ({ url: `/api/v1/users?em=${other(n)}` }),
    perAccount: (_, a) => ({ url: `/api/v1/users?em=${a.email}` }),
  },
  {
    name: 'reset password',
    answers: { perClient: 400, perAccount: 400 },
    method: 'POST',
    checksSecret: true,
    perClient: () => ({
      url: '/api/v1/users/password',
      body: { id: randomUUID(), code: '123456' },
    }),
    // Each call names a new reset request of the same account: one budget for the account.
    perAccount: () => ({ url: '/api/v1/users/password', body: { id: 'REQUEST', code: '123456' } }),
  },
  {
    // The OTP mail names the caller's own account: per client, each call is another account.
    name: 'OTP mail',
    answers: { perClient: 200, perAccount: 200 },
    method: 'GET',
    perClient: (_, a) => ({ url: `/api/v1/users/${a.id}/otp`, token: a.token }),
    perAccount: (_, a) => ({ url: `/api/v1/users/${a.id}/otp`, token: a.token }),
  },
];

async function send(method: 'GET' | 'POST', req: Request, ip: string, a?: Account) {
  let body = req.body as Record<string, unknown> | undefined;
  if (body?.id === 'REQUEST') {
    const { id } = await t.app.services.codes.issue(a!.id, 'reset');
    body = { ...body, id };
  }
  return t.call(method, req.url, { body, token: req.token, ip });
}

describe('rate limits', () => {
  it.each(LIMITED)('$name: 5 a minute per client', async ({ name, method, perClient, answers }) => {
    const ip = freshIp();
    const accounts = await Promise.all(
      Array.from({ length: LIMIT + 2 }, () => (name === 'OTP mail' ? newAccount() : null)),
    );
    const nth = (n: number) => perClient(n, accounts[n]!);
    for (let n = 0; n < LIMIT; n++) {
      const res = await send(method, nth(n), ip);
      expect(res.statusCode, res.body).toBe(answers.perClient);
    }
    const refused = await send(method, nth(LIMIT), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many attempts, try again in \d+ seconds$/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected.
    const elsewhere = await send(method, nth(LIMIT + 1), freshIp());
    expect(elsewhere.statusCode).toBe(answers.perClient);
  });

  it.each(LIMITED.filter((l) => !l.checksSecret))(
    '$name: 5 a minute per account, whatever the client',
    async ({ method, perAccount, answers }) => {
      const a = await newAccount();
      for (let n = 0; n < LIMIT; n++) {
        const res = await send(method, perAccount(n, a), freshIp(), a);
        expect(res.statusCode, res.body).toBe(answers.perAccount);
      }
      expect((await send(method, perAccount(LIMIT, a), freshIp(), a)).statusCode).toBe(429);
      // Another account is not affected.
      const b = await newAccount();
      expect((await send(method, perAccount(0, b), freshIp(), b)).statusCode).toBe(
        answers.perAccount,
      );
    },
  );

  it.each(LIMITED.filter((l) => l.checksSecret))(
    "$name: an attacker's failures never refuse the owner at another address",
    async ({ name, method, perAccount, right, answers }) => {
      // A confirmed account answers any confirmation code with success: confirm an unconfirmed one.
      const a = await newAccount(name !== 'confirm');
      const attacker = freshIp();
      const statuses: number[] = [];
      for (let n = 0; n <= LIMIT + 1; n++) {
        statuses.push((await send(method, perAccount(n, a), attacker, a)).statusCode);
      }
      expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(answers.perAccount));
      expect(statuses.slice(LIMIT)).toEqual([429, 429]);
      // The owner, at once, from their own address: not refused (and signed in).
      const owner = await send(method, right ? right(a) : perAccount(0, a), freshIp(), a);
      expect(owner.statusCode, owner.body).toBe(right ? 200 : answers.perAccount);
    },
  );

  it.each(LIMITED.filter((l) => l.checksSecret))(
    '$name: the failures of all addresses together meet a ceiling (10 times the limit)',
    async ({ name, method, perAccount, answers }) => {
      const a = await newAccount(name !== 'confirm');
      for (let n = 0; n < CEILING; n++) {
        const res = await send(method, perAccount(n, a), freshIp(), a);
        expect(res.statusCode, `failure ${n + 1}: ${res.body}`).toBe(answers.perAccount);
      }
      const refused = await send(method, perAccount(CEILING, a), freshIp(), a);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another account is not affected.
      const b = await newAccount(name !== 'confirm');
      expect((await send(method, perAccount(0, b), freshIp(), b)).statusCode).toBe(
        answers.perAccount,
      );
    },
  );

  it('a sign-in address in other letter case meets the same per-account ceiling', async () => {
    const a = await newAccount();
    // Upper, lower and mixed case, each failure from a new client address.
    const spelled = (n: number) =>
      n % 3 === 0
        ? a.email.toUpperCase()
        : n % 3 === 1
          ? a.email
          : ` ${a.email.replace(/^u/, 'U')} `;
    const login = (n: number) => ({
      url: '/api/v1/users/login',
      body: { email: spelled(n), password: 'a wrong password' },
    });
    for (let n = 0; n < CEILING; n++) {
      const res = await send('POST', login(n), freshIp());
      expect(res.statusCode, `failure ${n + 1}: ${res.body}`).toBe(401);
    }
    expect((await send('POST', login(CEILING), freshIp())).statusCode).toBe(429);
  });

  it('successful sign-ins are never counted against the account', async () => {
    const a = await newAccount();
    const signIn = LIMITED[0]!.right!(a);
    for (let n = 0; n < CEILING + 2; n++) {
      const res = await send('POST', signIn, freshIp(), a);
      expect(res.statusCode, `sign-in ${n + 1}`).toBe(200);
    }
  });

  it('register and forgot-password (POST and GET users) keep separate budgets', async () => {
    const a = await newAccount();
    for (let n = 0; n <= LIMIT; n++) await send('POST', LIMITED[2]!.perAccount(n, a), freshIp());
    const forgot = await send('GET', LIMITED[5]!.perAccount(0, a), freshIp());
    expect(forgot.statusCode).toBe(200);
  });

  it('a limited sign-in shows in the login activity', async () => {
    const a = await newAccount();
    const ip = freshIp();
    for (let n = 0; n <= LIMIT; n++) await send('POST', LIMITED[0]!.perAccount(n, a), ip);
    const outcomes = await t.app.db
      .selectFrom('auth_logs')
      .select('outcome')
      .where('user_id', '=', a.id)
      .orderBy('id')
      .execute();
    expect(outcomes.map((o) => o.outcome)).toEqual([
      ...Array(LIMIT).fill('bad_password'),
      'rate_limited',
    ]);
  });

  it('other calls are not limited', async () => {
    const a = await newAccount();
    const ip = freshIp();
    for (let n = 0; n < LIMIT * 3; n++) {
      const res = await t.call('GET', `/api/v1/users/${a.id}`, { token: a.token, ip });
      expect(res.statusCode).toBe(200);
    }
  });

  it('a spoofed X-Forwarded-For does not make a new client (no trusted proxy)', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT; n++) {
      const res = await t.call('POST', '/api/v1/users/login', {
        body: { email: other(n), password },
        ip,
        headers: { 'x-forwarded-for': `203.0.113.${n + 1}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    const { trustProxy } = loadConfig({ TRUST_PROXY: 'true' });
    expect(trustProxy).toBe(true);
    proxied = await buildTestApp({ authRateLimit: LIMIT, trustProxy });
  });
  afterAll(() => proxied.close());

  const loginVia = (forwardedFor: string, n: number) =>
    proxied.call('POST', '/api/v1/users/login', {
      body: { email: other(n), password },
      ip: '192.0.2.1', // the proxy
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('distinct X-Forwarded-For addresses are distinct clients', async () => {
    for (let n = 0; n < LIMIT * 2; n++) {
      expect((await loginVia(`203.0.113.${n + 1}`, n)).statusCode).toBe(401);
    }
  });

  it('one forwarded address is still limited', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT; n++) statuses.push((await loginVia('203.0.113.200', n)).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    // The login activity records the forwarded client address.
    const log = await proxied.app.db
      .selectFrom('auth_logs')
      .select('ip')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(log?.ip).toBe('203.0.113.200');
  });
});
