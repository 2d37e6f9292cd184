import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opFieldError } from '../../agent/lib/opError';
import type { AppSpec } from '../../features/webapps/resource';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';
import { PLAN_IDS } from '../../features/plans/api';

/**
 * Web apps through the API with a fake agent that keeps the server's apps in memory: what the
 * agent is asked (the spec it renders from), statuses, errors at their field, domains owned by
 * one app, child apps, rebuild, drift, PHP versions. tests/system/webapps.test.ts serves real
 * traffic through nginx, Apache and PHP-FPM in a sandbox server.
 */
let live: LiveApp;
let owner: TestUser;
let other: TestUser;
let agent: FakeAgent;
/** The fake server's apps, by name, as last applied. */
const apps = new Map<string, AppSpec>();
const removed: string[] = [];
/** Databases and database users the fake server dropped, in order. */
const dropped: string[] = [];

function fakeWebOps() {
  return {
    'webapp.apply': (spec: AppSpec) => {
      if (spec.php_version === '7.4')
        throw opFieldError('php_version', 'PHP 7.4 is not installed on the server');
      apps.set(spec.name, spec);
      return { path: `/home/${spec.user}/apps/${spec.name}` };
    },
    'webapp.remove': (a: { name: string }) => {
      removed.push(a.name);
      return { removed: apps.delete(a.name) };
    },
    'webapp.list': () =>
      [...apps.values()].map(({ name, user, stack_type, php_version, domains, web_root }) => ({
        name,
        user,
        stack_type,
        php_version,
        domains,
        web_root,
      })),
    'php.runtimes': () => [{ version: '8.2', running: true, source: 'debian' }],
    'php.available': () => [
      { version: '8.2', installed: true, candidate: '8.2.36-1~deb12u1', source: 'debian' },
      { version: '8.4', installed: false, candidate: '8.4.14-1', source: 'sury' },
    ],
    'php.install': ({ version }: { version: string }) => {
      if (version !== '8.4')
        throw opFieldError('version', `No package source of the server offers PHP ${version}`);
      return { version, running: true, source: 'sury' };
    },
    'webapp.cachePurge': () => ({ purged: 3 }),
    'mariadb.db.set': () => ({ set: true }),
    'mariadb.user.set': () => ({ set: true }),
    'mariadb.db.drop': (a: { name: string }) => {
      dropped.push(`db ${a.name}`);
      return { dropped: true };
    },
    'mariadb.user.drop': (a: { name: string }) => {
      dropped.push(`user ${a.name}`);
      return { dropped: true };
    },
  };
}

const base = (p = 'webstacks') => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const one = (id: number, p = 'webstacks') =>
  `/api/v1/${p}/${id}/servers/${agent.server.id}/users/${owner.id}`;
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  token = owner.token,
) => live.t.call(method, url, { token, body });
const appBody = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  domains: [`${name}.example.com`],
  sys_user: 'alice',
  ...over,
});

const addAppUser = (user: string, status: 'active' | 'pending' = 'active') =>
  addSysuser(live.t.app.db, agent.server.id, user, status);

beforeAll(async () => {
  live = await startLiveApp();
  // The owner on Pro: more apps than a Trial allows (plan-limits.test.ts tests the limits).
  [owner, other] = await Promise.all([live.t.user({ plan: PLAN_IDS.pro }), live.t.user()]);
  agent = await startFakeAgent(live, owner, fakeWebOps());
  await addAppUser('alice');
  await addAppUser('bob');
  await addAppUser('carol', 'pending');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('web apps', () => {
  it('creates an app: active once the server serves it, with what the server was told', async () => {
    const res = await call('POST', base(), appBody('shop'));
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({
      name: 'shop',
      webapp_type: 'custom',
      stack_type: 'nginx',
      web_stack: 'Native NGINX',
      type: 'app',
      parent_id: null,
      php_version: '8.2',
      domains: ['shop.example.com'],
      web_root: 'public',
      path: '/home/alice/apps/shop',
      status: 'active',
      error: null,
    });
    expect(record.sys_user).toMatchObject({ user_name: 'alice' });
    expect(record.sys_user.id).toBeGreaterThan(0);
    expect(record.php_settings).toMatchObject({ memory_limit: '256M', max_children: 8 });
    expect(apps.get('shop')).toMatchObject({
      user: 'alice',
      php_version: '8.2',
      parent: null,
      php_settings: expect.objectContaining({ disable_functions: expect.stringContaining('exec') }),
    });
    const list = await call('GET', `${base()}?id=${record.id}`);
    expect(list.json()).toMatchObject({ total: 1, data: [{ name: 'shop' }] });
  });

  it('writes international domains as punycode and refuses what could reach nginx syntax', async () => {
    const idn = await call('POST', base(), appBody('books', { domains: ['Bücher.example'] }));
    expect(idn.statusCode, idn.body).toBe(201);
    expect(idn.json().domains).toEqual(['xn--bcher-kva.example']);
    for (const bad of [
      'a;b.example',
      'a b.example',
      'x.example/..',
      '*.example.com',
      'localhost',
    ]) {
      const res = await call('POST', base(), appBody('evil', { domains: [bad] }));
      expect(res.statusCode, bad).toBe(400);
      expect(Object.keys(res.json().errors ?? {}).join()).toContain('domains');
    }
    const twice = await call(
      'POST',
      base(),
      appBody('twice', { domains: ['t.example', 't.example'] }),
    );
    expect(twice.statusCode).toBe(400);
    for (const name of ['Shop', '1shop', 'a_b', 'x'.repeat(41)]) {
      const res = await call('POST', base(), appBody(name));
      expect(res.statusCode, name).toBe(400);
    }
    expect(apps.has('evil')).toBe(false);
  });

  it('refuses a user the server does not have, a name or a domain in use, at the field', async () => {
    const calls = agent.calls.length;
    const nobody = await call('POST', base(), appBody('nobody', { sys_user: 'zed' }));
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().errors).toHaveProperty('sys_user');
    const pending = await call('POST', base(), appBody('early', { sys_user: 'carol' }));
    expect(pending.json().errors.sys_user).toMatch(/not ready/);
    const name = await call('POST', base(), appBody('shop', { domains: ['other.example'] }));
    expect(name.json().errors).toHaveProperty('name');
    const domain = await call('POST', base(), appBody('copy', { domains: ['shop.example.com'] }));
    expect(domain.statusCode).toBe(400);
    expect(domain.json().errors.domains).toMatch(/shop\.example\.com is served by another app/);
    // The refused bodies never reached the server (a sweep of earlier rows may run meanwhile).
    const refused = agent.calls
      .slice(calls)
      .filter((c) =>
        (['nobody', 'early', 'copy'] as unknown[]).includes((c.args as { name?: unknown }).name),
      );
    expect(refused).toEqual([]);
  });

  it('gives a domain to one app only when two ask at once', async () => {
    const results = await Promise.all(
      ['race1', 'race2', 'race3'].map((n) =>
        call('POST', base(), appBody(n, { domains: ['race.example'] })),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const owners = await live.t.app.db
      .selectFrom('webapp_domains')
      .select('webapp_id')
      .where('name', '=', 'race.example')
      .execute();
    expect(owners).toHaveLength(1);
    const listed = await call('GET', `${base()}?perPage=100`);
    const holding = listed
      .json()
      .data.filter((a: { domains: string[] }) => a.domains.includes('race.example'));
    expect(holding).toHaveLength(1);
  });

  it("says the server's refusal at its field and keeps nothing of a refused app", async () => {
    const res = await call('POST', base(), appBody('old', { php_version: '7.4' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.php_version).toMatch(/not installed/);
    const again = await call('POST', base(), appBody('old'));
    expect(again.statusCode, again.body).toBe(201);
  });

  it('changes PHP settings, domains and stack: the server gets the whole app again', async () => {
    const created = await call('POST', base(), appBody('blog', { domains: ['blog.example'] }));
    const id = created.json().id as number;
    const res = await call('PATCH', one(id), {
      php_settings: { memory_limit: '512M' },
      domains: ['www.blog.example', 'blog.example'],
      stack_type: 'apache/nginx',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      web_stack: 'NGINX plus Apache2',
      domains: ['www.blog.example', 'blog.example'],
      php_settings: { memory_limit: '512M', upload_max_filesize: '64M' },
    });
    expect(apps.get('blog')).toMatchObject({
      stack_type: 'apache/nginx',
      domains: ['www.blog.example', 'blog.example'],
      php_settings: expect.objectContaining({ memory_limit: '512M', max_execution_time: 60 }),
    });
    // The domain it gave up is free for another app.
    await call('PATCH', one(id), { domains: ['www.blog.example'] });
    const taker = await call('POST', base(), appBody('taker', { domains: ['blog.example'] }));
    expect(taker.statusCode, taker.body).toBe(201);
    // A change of one setting keeps the others as they were, not as the defaults are.
    await call('PATCH', one(id), { php_settings: { upload_max_filesize: '128M' } });
    const kept = await call('PATCH', one(id), { php_settings: { max_children: 4 } });
    expect(kept.json().php_settings).toMatchObject({
      memory_limit: '512M',
      upload_max_filesize: '128M',
      max_children: 4,
    });
    const bad = await call('PATCH', one(id), { php_settings: { memory_limit: '1 GB' } });
    expect(bad.statusCode).toBe(400);
    const badFn = await call('PATCH', one(id), {
      php_settings: { disable_functions: 'exec;system' },
    });
    expect(badFn.statusCode).toBe(400);
  });

  it('runs a static site without PHP', async () => {
    const res = await call('POST', base(), appBody('docs', { webapp_type: 'static' }));
    expect(res.json()).toMatchObject({ status: 'active', php_version: null });
    expect(apps.get('docs')?.php_version).toBeNull();
    const php = await call('PATCH', one(res.json().id), { php_version: '8.2' });
    expect(php.json().errors).toHaveProperty('php_version');
  });

  it('hangs child apps under a parent, as its user; deleting the parent asks about them', async () => {
    const parent = (await call('POST', base(), appBody('main'))).json();
    const wrongUser = await call(
      'POST',
      base(),
      appBody('sub', { parent_id: parent.id, sys_user: 'bob', domains: ['sub.main.example'] }),
    );
    expect(wrongUser.json().errors.sys_user).toMatch(/parent's user, alice/);
    const child = await call(
      'POST',
      base(),
      appBody('sub', { parent_id: parent.id, domains: ['sub.main.example'] }),
    );
    expect(child.statusCode, child.body).toBe(201);
    expect(child.json()).toMatchObject({ type: 'child', parent_id: parent.id });
    expect(apps.get('sub')?.parent).toBe('main');
    const grandchild = await call(
      'POST',
      base(),
      appBody('subsub', { parent_id: child.json().id, domains: ['x.sub.main.example'] }),
    );
    expect(grandchild.json().errors).toHaveProperty('parent_id');
    const children = await call('GET', `${base()}?parent_id=${parent.id}`);
    expect(children.json().data.map((a: { name: string }) => a.name)).toEqual(['sub']);

    const refused = await call('DELETE', one(parent.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/1 child app \(sub\)/);
    expect(apps.has('main')).toBe(true);
    const gone = await call('DELETE', `${one(parent.id)}?children=true`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(removed.slice(-2)).toEqual(['sub', 'main']);
    expect((await call('GET', `${base()}?parent_id=${parent.id}`)).json().total).toBe(0);
    // Its domains are free again.
    const reuse = await call('POST', base(), appBody('main2', { domains: ['main.example.com'] }));
    expect(reuse.statusCode, reuse.body).toBe(201);
  });

  it('rebuilds an app from the panel and shows drift against the server', async () => {
    const created = (await call('POST', base(), appBody('wiki'))).json();
    apps.delete('wiki');
    const sync = await call('GET', `${base()}?sync=true&perPage=100`);
    const wiki = sync.json().data.find((a: { name: string }) => a.name === 'wiki');
    expect(wiki.drift).toBe('missing');
    const rebuilt = await call('PATCH', one(created.id, 'webstacks/rebuild'));
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    expect(rebuilt.json()).toMatchObject({ name: 'wiki', status: 'active' });
    expect(apps.has('wiki')).toBe(true);
    const after = await call('GET', `${base()}?sync=true&perPage=100`);
    expect(after.json().data.find((a: { name: string }) => a.name === 'wiki').drift).toBeNull();
  });

  it('offers the PHP versions the package sources have, and installs one, saying where from', async () => {
    const available = await call('GET', base('webstacks/php/available'));
    expect(available.statusCode, available.body).toBe(200);
    expect(available.json().data).toEqual([
      expect.objectContaining({ version: '8.2', installed: true, from: "Debian's own packages" }),
      expect.objectContaining({ version: '8.4', installed: false, from: 'the Sury repository' }),
    ]);
    const refused = await call('POST', base('webstacks/php'), { version: '8.3' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({
      version: 'No package source of the server offers PHP 8.3',
    });
    const installed = await call('POST', base('webstacks/php'), { version: '8.4' });
    expect(installed.statusCode, installed.body).toBe(200);
    expect(installed.json()).toEqual({
      version: '8.4',
      running: true,
      source: 'sury',
      from: 'the Sury repository',
    });
    const log = await live.t.app.db
      .selectFrom('server_activity')
      .select(['message', 'error'])
      .where('server_id', '=', agent.server.id)
      .where('message', 'like', 'Install PHP%')
      .orderBy('id')
      .execute();
    expect(log).toEqual([
      { message: 'Install PHP 8.3', error: 'No package source of the server offers PHP 8.3' },
      { message: 'Install PHP 8.4', error: null },
    ]);
  });

  it('lists the PHP versions of the server, and all of a user’s apps', async () => {
    const php = await call('GET', base('webstacks/php'));
    expect(php.json()).toEqual({
      data: [{ version: '8.2', running: true, source: 'debian', from: "Debian's own packages" }],
    });
    const all = await call('GET', `/api/v1/webstacks/users/${owner.id}`);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((a: { name: string }) => a.name)).toContain('shop');
    expect(all.json().data[0]).toMatchObject({ server_id: agent.server.id, server_name: 'fake-1' });
    const theirs = await call('GET', `/api/v1/webstacks/users/${other.id}`, undefined, other.token);
    expect(theirs.json().total).toBe(0);
  });

  it('checks where a domain points, refusing what is no domain', async () => {
    const bad = await call(
      'GET',
      `${base('a-record-validation')}?domain=${encodeURIComponent('a;b')}`,
    );
    expect(bad.statusCode).toBe(400);
    // No name server answers here: the name points nowhere, said plainly.
    const res = await call('GET', `${base('a-record-validation')}?domain=nowhere.invalid`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ domain: 'nowhere.invalid', addresses: [], points: false });
  });

  it('turns the web cache on and off with the app, for PHP apps on native nginx only', async () => {
    const app = (await call('POST', base(), appBody('cached'))).json() as { id: number };
    const url = (what = 'nginxcache') => `${base(what)}?wsid=${app.id}`;
    expect((await call('GET', url())).json()).toMatchObject({ enabled: false, ttl_seconds: 3600 });
    const edit = await call('PATCH', url(), { ttl_seconds: 60 });
    expect(edit.statusCode).toBe(409);
    const on = await call('POST', url(), { ttl_seconds: 120, bypass_cookies: ['session'] });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({
      enabled: true,
      ttl_seconds: 120,
      bypass_cookies: ['session'],
    });
    expect(apps.get('cached')?.cache).toMatchObject({ ttl_seconds: 120 });
    expect(apps.get('cached')?.cache?.bypass_cookies).toEqual(['session']);
    // A new time to live keeps the bypass lists given before.
    const ttl = await call('PATCH', url(), { ttl_seconds: 90 });
    expect(ttl.json()).toMatchObject({ ttl_seconds: 90, bypass_cookies: ['session'] });
    const bad = await call('PATCH', url(), { bypass_paths: ['/a b'], ttl_seconds: 0 });
    expect(bad.statusCode).toBe(400);
    const byApp = await call(
      'GET',
      `/api/v1/nginxcache/webstacks/${app.id}/servers/${agent.server.id}/users/${owner.id}`,
    );
    expect(byApp.json()).toMatchObject({ enabled: true, ttl_seconds: 90 });
    expect((await call('POST', url('nginxcache/purge'))).json()).toEqual({ purged: 3 });
    // Apache's stack has no place for it: the switch waits until the cache is off.
    const hybrid = await call('PATCH', one(app.id), {
      stack_type: 'apache/nginx',
    });
    expect(hybrid.statusCode, hybrid.body).toBe(400);
    expect(hybrid.json().errors.stack_type).toMatch(/turn it off first/);
    const off = await call('DELETE', url());
    expect(off.json()).toMatchObject({ enabled: false });
    expect(apps.get('cached')?.cache).toBeNull();
    const site = (
      await call('POST', base(), appBody('flat', { webapp_type: 'static' }))
    ).json() as {
      id: number;
    };
    const refused = await call('POST', `${base('nginxcache')}?wsid=${site.id}`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.wsid).toMatch(/PHP apps on native NGINX/);
  });

  it('keeps a system user whose apps run as it', async () => {
    const alice = await live.t.app.db
      .selectFrom('sysusers')
      .select('id')
      .where('server_id', '=', agent.server.id)
      .where('user_name', '=', 'alice')
      .executeTakeFirstOrThrow();
    const res = await call('DELETE', one(alice.id, 'sysusers'));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^alice runs (web app [a-z0-9-]+, )*web app shop(, web app [a-z0-9-]+)*: remove them first$/,
    );
    const still = await live.t.app.db
      .selectFrom('sysusers')
      .select('status')
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(still.status).toBe('active');
  });

  it("keeps another tenant out of the owner's apps", async () => {
    const created = (await call('POST', base(), appBody('secret'))).json();
    const theirs = await call('GET', one(created.id), undefined, other.token);
    expect(theirs.statusCode).toBe(404);
    const asOther = await live.t.call(
      'GET',
      `/api/v1/webstacks/${created.id}/servers/${agent.server.id}/users/${other.id}`,
      { token: other.token },
    );
    expect(asOther.statusCode).toBe(404);
  });

  it("drops the app's databases with it only when asked", async () => {
    const made = async (name: string) => {
      const app = await call('POST', base(), appBody(name));
      expect(app.statusCode, app.body).toBe(201);
      const id = app.json().id as number;
      const db = await call('POST', one(id, 'webstackdb'), { name: `${name}_db` });
      expect(db.statusCode, db.body).toBe(201);
      const user = await call('POST', one(id, 'webstackdbuser'), {
        name: `${name}_u`,
        password: 'a long database password',
        databases: [db.json().id],
      });
      expect(user.statusCode, user.body).toBe(201);
      return id;
    };
    const kept = await made('keepdb');
    expect((await call('DELETE', one(kept))).statusCode).toBe(200);
    expect(dropped).toEqual([]);
    const server = await call('GET', base('databases'));
    expect(server.json().data.map((d: { name: string }) => d.name)).toContain('keepdb_db');

    const gone = await made('dropdb');
    expect((await call('DELETE', `${one(gone)}?databases=true`)).statusCode).toBe(200);
    expect(dropped).toEqual(['user dropdb_u', 'db dropdb_db']);
    const after = await call('GET', base('databases'));
    expect(after.json().data.map((d: { name: string }) => d.name)).not.toContain('dropdb_db');
  });
});
