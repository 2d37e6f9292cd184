import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * EasyPHP: the admins' catalogue of PHP extensions, and its extensions on a server's PHP
 * version, read and switched by the agent (a fake one here, holding the version's files in
 * memory: what mods-available and fpm/conf.d would list).
 */
let live: LiveApp;
let owner: TestUser;
let admin: TestUser;
let staff: TestUser;
let agent: FakeAgent;

/** PHP 8.2 of the fake server: calendar and exif installed, calendar on for the FPM. */
const files = { available: ['calendar', 'exif', 'opcache'], enabled: ['calendar', 'opcache'] };
let checkFails = false;

const path = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const as = (user: TestUser) => ({
  call: (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    live.t.call(method, url, { token: user.token, body }),
});

async function idOf(name: string): Promise<number> {
  const row = await live.t.app.db
    .selectFrom('php_extensions')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  admin = await live.t.user({ admin: true });
  staff = await live.t.user({ staff: true });
  agent = await startFakeAgent(live, owner, {
    'php.runtimes': () => [
      { version: '8.2', running: true, source: 'debian' },
      { version: '8.1', running: false, source: 'sury' },
    ],
    'easyphp.state': () => ({ available: [...files.available], enabled: [...files.enabled] }),
    'easyphp.set': (a: { name: string; enabled: boolean }) => {
      const was = files.enabled.includes(a.name);
      if (was === a.enabled) return { enabled: a.enabled, changed: false };
      if (checkFails) throw new Error('php-fpm8.2 -t refused the change, which was undone');
      files.enabled = a.enabled
        ? [...files.enabled, a.name]
        : files.enabled.filter((n) => n !== a.name);
      return { enabled: a.enabled, changed: true };
    },
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('the admin catalogue', () => {
  it('is seeded with the common extensions, their packages by PHP version', async () => {
    const res = await as(admin).call(
      'GET',
      '/api/v1/admin/easyphp?perPage=100&sort=name&order=ASC',
    );
    expect(res.statusCode, res.body).toBe(200);
    const names = (res.json().data as { name: string }[]).map((e) => e.name);
    for (const name of ['opcache', 'calendar', 'mysqli', 'pdo_mysql', 'gd', 'intl', 'imagick'])
      expect(names).toContain(name);
    const calendar = (res.json().data as { name: string }[]).find((e) => e.name === 'calendar');
    expect(calendar).toMatchObject({ package: 'php{version}-common', is_available: true });
  });

  it('adds, reads, changes, switches off and removes an extension', async () => {
    const made = await as(admin).call('POST', '/api/v1/admin/easyphp', {
      name: 'apcu',
      label: 'APCu',
      description: 'User cache',
      package: 'php{version}-apcu',
      php_versions: ['8.2'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };
    expect(made.json()).toMatchObject({ name: 'apcu', php_versions: ['8.2'], is_available: true });

    const read = await as(admin).call('GET', `/api/v1/admin/easyphp/${id}`);
    expect(read.json()).toMatchObject({ label: 'APCu' });

    const put = await as(admin).call('PUT', `/api/v1/admin/easyphp/${id}`, {
      name: 'apcu',
      label: 'APCu cache',
      package: null,
      php_versions: [],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ label: 'APCu cache', package: null, php_versions: [] });

    const off = await as(admin).call('PATCH', `/api/v1/admin/easyphp/${id}`, {
      is_available: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().is_available).toBe(false);

    const gone = await as(admin).call('DELETE', `/api/v1/admin/easyphp/${id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await as(admin).call('GET', `/api/v1/admin/easyphp/${id}`)).statusCode).toBe(404);
  });

  it('refuses a name phpenmod would not take, and a name already there', async () => {
    const bad = await as(admin).call('POST', '/api/v1/admin/easyphp', {
      name: '../etc',
      label: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['name']);
    const twice = await as(admin).call('POST', '/api/v1/admin/easyphp', {
      name: 'calendar',
      label: 'Calendar again',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().errors).toEqual({ name: 'calendar is already in the catalogue' });
  });

  it('of two admins adding the same name at once, one gets it and the other a 409', async () => {
    const add = () =>
      as(admin).call('POST', '/api/v1/admin/easyphp', { name: 'xdebug', label: 'Xdebug' });
    const codes = (await Promise.all([add(), add(), add()])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
  });

  it('is for admins only: admin staff and users are refused', async () => {
    for (const user of [owner, staff]) {
      expect((await as(user).call('GET', '/api/v1/admin/easyphp')).statusCode).toBe(403);
      const post = await as(user).call('POST', '/api/v1/admin/easyphp', {
        name: 'nope',
        label: 'Nope',
      });
      expect(post.statusCode).toBe(403);
      const id = await idOf('calendar');
      const patch = await as(user).call('PATCH', `/api/v1/admin/easyphp/${id}`, {
        is_available: false,
      });
      expect(patch.statusCode).toBe(403);
    }
  });
});

describe("a server's PHP extensions", () => {
  it('reads the PHP versions, which {version} may then name', async () => {
    const unknown = await as(owner).call('GET', path('easyphp/8.2'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^PHP 8\.2 is not among the PHP versions read/);
    const res = await as(owner).call('GET', path('easyphp'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: { version: string }) => r.version)).toEqual(['8.2', '8.1']);
    expect((await as(owner).call('GET', path('easyphp/7.4'))).statusCode).toBe(404);
  });

  it("lists the catalogue's extensions with their state on the version", async () => {
    const res = await as(owner).call('GET', path('easyphp/8.2'));
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { name: string; available: boolean; enabled: boolean }[];
    expect(res.json().version).toBe('8.2');
    expect(data.find((e) => e.name === 'calendar')).toMatchObject({
      available: true,
      enabled: true,
      package: 'php8.2-common',
    });
    expect(data.find((e) => e.name === 'exif')).toMatchObject({ available: true, enabled: false });
    expect(data.find((e) => e.name === 'gd')).toMatchObject({
      available: false,
      enabled: false,
      package: 'php8.2-gd',
    });
    expect(agent.calls.at(-1)).toEqual({ name: 'easyphp.state', args: { version: '8.2' } });
  });

  it('leaves out what the admins stopped offering', async () => {
    const id = await idOf('exif');
    await as(admin).call('PATCH', `/api/v1/admin/easyphp/${id}`, { is_available: false });
    const res = await as(owner).call('GET', path('easyphp/8.2'));
    expect(res.json().data.map((e: { name: string }) => e.name)).not.toContain('exif');
    const refused = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=${id}`);
    expect(refused.statusCode).toBe(400);
    await as(admin).call('PATCH', `/api/v1/admin/easyphp/${id}`, { is_available: true });
  });

  it('disables and enables an extension for PHP-FPM, in the activity log', async () => {
    const id = await idOf('calendar');
    const off = await as(owner).call('PATCH', `${path('easyphp/8.2')}?disable=${id}`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ name: 'calendar', enabled: false, available: true });
    expect(agent.calls.at(-1)).toEqual({
      name: 'easyphp.set',
      args: { version: '8.2', name: 'calendar', enabled: false },
    });
    expect(files.enabled).not.toContain('calendar');
    const on = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=${id}`);
    expect(on.json()).toMatchObject({ enabled: true });
    expect(files.enabled).toContain('calendar');
    const log = await live.t.app.db
      .selectFrom('server_activity')
      .select('message')
      .where('server_id', '=', agent.server.id)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(log.map((l) => l.message)).toEqual([
      'Enable the PHP 8.2 extension calendar (PHP-FPM)',
      'Disable the PHP 8.2 extension calendar (PHP-FPM)',
    ]);
  });

  it('leaves an extension already as asked alone: no switch, no reload, no log line', async () => {
    const id = await idOf('opcache');
    const before = agent.calls.length;
    const res = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'opcache', enabled: true });
    expect(agent.calls.slice(before).map((c) => c.name)).toEqual(['easyphp.state']);
  });

  it('refuses an extension the server lacks, saying which package provides it', async () => {
    const id = await idOf('gd');
    const before = agent.calls.length;
    const res = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=${id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      enable:
        'GD (gd) is not installed for PHP 8.2 on this server: the php8.2-gd package provides it',
    });
    expect(agent.calls.slice(before).map((c) => c.name)).toEqual(['easyphp.state']);
  });

  it('asks for exactly one of ?enable= and ?disable=, naming a catalogue extension', async () => {
    const id = await idOf('calendar');
    expect((await as(owner).call('PATCH', path('easyphp/8.2'))).statusCode).toBe(400);
    const both = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=${id}&disable=${id}`);
    expect(both.statusCode).toBe(400);
    const missing = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=999999`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.enable).toMatch(/No such PHP extension/);
    const bad = await as(owner).call('PATCH', `${path('easyphp/8.2')}?enable=calendar`);
    expect(bad.statusCode).toBe(400);
  });

  it("hands on the server's refusal when php-fpm's check fails", async () => {
    const id = await idOf('calendar');
    checkFails = true;
    try {
      const res = await as(owner).call('PATCH', `${path('easyphp/8.2')}?disable=${id}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/php-fpm8\.2 -t refused the change, which was undone/);
      expect(files.enabled).toContain('calendar');
    } finally {
      checkFails = false;
    }
  });

  it("is not another user's to read or switch", async () => {
    const other = await live.t.user();
    const url = `/api/v1/easyphp/8.2/servers/${agent.server.id}/users/${other.id}`;
    expect((await as(other).call('GET', url)).statusCode).toBe(404);
    const id = await idOf('calendar');
    expect((await as(other).call('PATCH', `${url}?disable=${id}`)).statusCode).toBe(404);
  });
});
