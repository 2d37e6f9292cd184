import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Every registered API route, called by an admin (who passes every guard) with malformed ids,
 * bodies and queries: each answers a client error, never a 500. Account-ending calls (logout,
 * acting) are left out; `{uid}` is the admin's own id so the guard lets the input through.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
});
afterAll(() => t.close());

const BAD_IDS = ['abc', '-1', '1e3', '1.5', '0', '%00', "1'", '99999999999999999999'];
const BAD_BODIES: unknown[] = [
  [],
  { a: { b: [null] } },
  { name: null, label: 5, secret: {}, type: 'MX', amount: '1e400', message: [], share: ['a'] },
];
const BAD_QUERIES = [
  '?page=0&perPage=100000&sort=;drop&order=sideways',
  '?label=%00&domain=..&type=zz&action=nope&sid=abc&dry=maybe',
  '?page=99999999999999999999&sort=__proto__',
];

const apiRoutes = () =>
  t.app.registeredRoutes.filter(
    (r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && !/logout|act-as/.test(r.url),
  );
const filled = (url: string, value: string) =>
  url.replace(/:(\w+)/g, (_, name: string) => (name === 'uid' ? String(admin.id) : value));

async function serverErrors(calls: { method: string; url: string; body?: unknown }[]) {
  const failed: string[] = [];
  for (const { method, url, body } of calls) {
    const res = await t.call(method as 'GET', url, { token: admin.token, body });
    if (res.statusCode >= 500) failed.push(`${method} ${url} -> ${res.statusCode}`);
  }
  return failed;
}

describe('malformed input', () => {
  it('a malformed id in any path answers a client error', async () => {
    const calls = apiRoutes()
      .filter((r) => /:(?!uid\b)\w+/.test(r.url))
      .flatMap((r) => BAD_IDS.map((id) => ({ method: r.method, url: filled(r.url, id) })));
    expect(await serverErrors(calls)).toEqual([]);
  }, 120_000);

  it('a malformed body or query answers a client error', async () => {
    const calls = apiRoutes().flatMap((r) =>
      ['POST', 'PUT', 'PATCH'].includes(r.method)
        ? BAD_BODIES.map((body) => ({ method: r.method, url: filled(r.url, '1'), body }))
        : r.method === 'GET'
          ? BAD_QUERIES.map((q) => ({ method: 'GET', url: filled(r.url, '1') + q }))
          : [],
    );
    expect(await serverErrors(calls)).toEqual([]);
  }, 120_000);
});
