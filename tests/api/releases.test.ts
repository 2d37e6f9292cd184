import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type LiveApp, startLiveApp } from './liveApp';

/** The app-release catalogue: admins pin releases (URL, SHA-256, format), one default per app. */
let live: LiveApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;

const call = (
  user: TestUser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => live.t.call(method, url, { token: user.token, body });

const wp = (version: string, extra: Record<string, unknown> = {}) => ({
  app: 'wordpress',
  version,
  url: `https://wordpress.org/wordpress-${version}.tar.gz`,
  sha256: 'A'.repeat(64),
  size: 24_000_000,
  format: 'tar.gz',
  ...extra,
});

beforeAll(async () => {
  live = await startLiveApp();
  admin = await live.t.user({ admin: true });
  staff = await live.t.user({ staff: true });
  owner = await live.t.user();
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('the release catalogue', () => {
  it('adds, reads, changes and removes a release; the hash kept in lower case', async () => {
    const made = await call(admin, 'POST', '/api/v1/admin/app-releases', wp('6.4.3'));
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };
    expect(made.json()).toMatchObject({
      app: 'wordpress',
      sha256: 'a'.repeat(64),
      size: 24_000_000,
      is_default: false,
    });
    const put = await call(admin, 'PUT', `/api/v1/admin/app-releases/${id}`, {
      ...wp('6.4.3'),
      url: 'http://127.0.0.1:8080/wordpress-6.4.3.tar.gz',
      size: null,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      url: 'http://127.0.0.1:8080/wordpress-6.4.3.tar.gz',
      size: null,
    });
    const list = await call(admin, 'GET', '/api/v1/admin/app-releases?sort=version');
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json().data as { id: number }[]).map((r) => r.id)).toContain(id);
    expect((await call(admin, 'DELETE', `/api/v1/admin/app-releases/${id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/api/v1/admin/app-releases/${id}`)).statusCode).toBe(404);
  });

  it('keeps one default per app', async () => {
    const a = await call(
      admin,
      'POST',
      '/api/v1/admin/app-releases',
      wp('6.5', { is_default: true }),
    );
    const b = await call(
      admin,
      'POST',
      '/api/v1/admin/app-releases',
      wp('6.6', { is_default: true }),
    );
    expect(b.statusCode, b.body).toBe(201);
    const first = await call(admin, 'GET', `/api/v1/admin/app-releases/${a.json().id}`);
    expect(first.json().is_default).toBe(false);
    expect(b.json().is_default).toBe(true);
  });

  it('refuses a version already there, bad addresses and hashes at their fields', async () => {
    await call(admin, 'POST', '/api/v1/admin/app-releases', wp('7.0'));
    const twice = await call(admin, 'POST', '/api/v1/admin/app-releases', wp('7.0'));
    expect(twice.statusCode).toBe(409);
    expect(Object.keys(twice.json().errors)).toEqual(['version']);
    const bad = await call(admin, 'POST', '/api/v1/admin/app-releases', {
      ...wp('7.1'),
      url: 'file:///etc/passwd',
      sha256: 'g'.repeat(64),
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['sha256', 'url']);
  });

  it('is the admins’ alone: admin staff and users are refused', async () => {
    for (const user of [staff, owner]) {
      expect((await call(user, 'GET', '/api/v1/admin/app-releases')).statusCode).toBe(403);
      const made = await call(user, 'POST', '/api/v1/admin/app-releases', wp('8.0'));
      expect(made.statusCode).toBe(403);
      expect(Object.keys(made.json()).sort()).toEqual(['error', 'message', 'statusCode']);
    }
  });
});

describe('the mirror (admin/app-releases-mirror)', () => {
  const MIRROR = '/api/v1/admin/app-releases-mirror';

  it('is none until an admin sets one; set, read back, cleared with null', async () => {
    const first = await call(admin, 'GET', MIRROR);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ mirror: null, updated_at: null });
    const set = await call(admin, 'PUT', MIRROR, { mirror: ' http://127.0.0.1:8080/apps ' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().mirror).toBe('http://127.0.0.1:8080/apps');
    expect(set.json().updated_at).toMatch(/^\d{4}-/);
    expect((await call(admin, 'GET', MIRROR)).json().mirror).toBe('http://127.0.0.1:8080/apps');
    const cleared = await call(admin, 'PUT', MIRROR, { mirror: null });
    expect(cleared.statusCode).toBe(200);
    expect((await call(admin, 'GET', MIRROR)).json().mirror).toBeNull();
  });

  it('refuses other schemes, credentials, fragments and queries at the field', async () => {
    for (const [mirror, words] of [
      ['ftp://mirror.example.org/apps', /https/],
      ['https://u:p@mirror.example.org/apps', /user name or password/],
      ['https://mirror.example.org/apps#x', /fragment/],
      ['https://mirror.example.org/apps?token=1', /query/],
      ['mirror.example.org', /full address/],
    ] as const) {
      const res = await call(admin, 'PUT', MIRROR, { mirror });
      expect(res.statusCode, mirror).toBe(400);
      expect(res.json().errors.mirror).toMatch(words);
    }
    expect((await call(admin, 'GET', MIRROR)).json().mirror).toBeNull();
  });

  it('is the admins’ alone: admin staff and users are refused', async () => {
    for (const user of [staff, owner]) {
      expect((await call(user, 'GET', MIRROR)).statusCode).toBe(403);
      const res = await call(user, 'PUT', MIRROR, { mirror: 'https://mirror.example.org' });
      expect(res.statusCode).toBe(403);
    }
    expect((await call(admin, 'GET', MIRROR)).json().mirror).toBeNull();
  });
});
