import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import { ManagedStore } from '../../server/managed/store';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The WordPress manager's routes with a fake agent recording each `wp.manage` it is asked:
 * only a WordPress app of the server reaches it (another app: 409; another tenant's: 404),
 * with the arguments each route means, and a password never in an answer or the activity log.
 * tests/system/wpmanager.test.ts runs the op against a real WordPress.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let agent: FakeAgent;
let blog: number;
let plain: number;
const asked: { action: string; input: Record<string, unknown>; [k: string]: unknown }[] = [];
let refuse: OpError | null = null;
const PASSWORD = 'a long secret password 99';

const general = {
  title: 'Blog',
  url: 'http://blog.example',
  admin_email: 'a@example.com',
  public: true,
  debug: false,
  maintenance: false,
};
const user = {
  id: 2,
  login: 'author1',
  email: 'x@example.com',
  roles: ['author'],
  registered: '2026-01-01 00:00:00',
};
const plugins = [
  { plugin: 'akismet/akismet.php', name: 'Akismet', version: '5.0', description: '', active: true },
];

const path = (p: string, sid = agent.server.id, uid = owner.id) =>
  `/api/v1/${p}/servers/${sid}/users/${uid}`;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

async function appRow(serverId: number, name: string, type: string): Promise<number> {
  const row = await new ManagedStore(live.t.app.db, 'webapps').insert(serverId, {
    name,
    webapp_type: type,
    stack_type: 'nginx',
    php_version: '8.2',
    domains: JSON.stringify([`${name}.example`]),
    web_root: 'public',
    php_settings: '{}',
    sys_user: 'alice',
    parent_id: null,
  });
  // An app the server already holds: a pending row would be applied by the sweeper mid-test.
  await new ManagedStore(live.t.app.db, 'webapps').settle(row, { status: 'active' });
  return row.id;
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  stranger = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'wp.manage': (a: (typeof asked)[number]) => {
      asked.push(a);
      if (refuse) throw refuse;
      if (a.action.startsWith('general')) return { general };
      if (a.action === 'users.list')
        return { users: [user], roles: [{ name: 'author', label: 'Author' }] };
      if (a.action === 'users.delete') return { deleted: a.input.id };
      if (a.action.startsWith('users')) return { user };
      return { plugins };
    },
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  blog = await appRow(agent.server.id, 'blog', 'wordpress');
  plain = await appRow(agent.server.id, 'shop', 'custom');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});
beforeEach(() => {
  asked.length = 0;
  refuse = null;
});

const site = { user: 'alice', app: 'blog', web_root: 'public', php_version: '8.2' };

describe('WordPress manager', () => {
  it('refuses an app that is not WordPress (409) and another tenant’s app (404), asking nothing', async () => {
    const notWp = await call('GET', `${path('wp-manager/general')}?wsid=${plain}`);
    expect(notWp.statusCode).toBe(409);
    expect(notWp.json().message).toBe('shop is not a WordPress app');
    const foreignServer = await live.t.app.services.servers.create(stranger.id, { name: 'f' });
    const foreign = await appRow(foreignServer.id, 'theirs', 'wordpress');
    const named = await call('GET', `${path('wp-manager/users')}?wsid=${foreign}`);
    expect(named.statusCode).toBe(404);
    const upload = await call('PATCH', path(`wp/webstacks/${foreign}`), {
      file_name: 'p.zip',
      zip: 'UEsDBA==',
    });
    expect(upload.statusCode).toBe(404);
    expect(asked).toEqual([]);
  });

  it('reads and changes the general settings, one `type` at a time', async () => {
    const read = await call('GET', `${path('wp-manager/general')}?wsid=${blog}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(general);
    expect(asked[0]).toEqual({ ...site, action: 'general.read', input: {} });
    const set = await call('PATCH', `${path('wp-manager/general')}?wsid=${blog}&type=maintenance`, {
      value: true,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(asked[1]).toEqual({
      ...site,
      action: 'general.set',
      input: { setting: 'maintenance', value: true },
    });
    const wrongKind = await call('PATCH', `${path('wp-manager/general')}?wsid=${blog}&type=url`, {
      value: true,
    });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().errors).toHaveProperty('value');
    expect(asked).toHaveLength(2);
  });

  it('lists, creates, changes and deletes users; the password only reaches the agent', async () => {
    const list = await call('GET', `${path('wp-manager/users')}?wsid=${blog}`);
    expect(list.json()).toEqual({ users: [user], roles: [{ name: 'author', label: 'Author' }] });
    const made = await call('POST', `${path('wp-manager/users')}?wsid=${blog}`, {
      login: 'author1',
      email: 'x@example.com',
      role: 'author',
      password: PASSWORD,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.body).not.toContain(PASSWORD);
    expect(asked[1]).toEqual({
      ...site,
      action: 'users.create',
      input: { login: 'author1', email: 'x@example.com', role: 'author', password: PASSWORD },
    });
    const changed = await call('PATCH', `${path('wp-manager/users/2')}?wsid=${blog}`, {
      password: PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.body).not.toContain(PASSWORD);
    expect(asked[2]).toEqual({
      ...site,
      action: 'users.change',
      input: { id: 2, password: PASSWORD },
    });
    const gone = await call('DELETE', `${path('wp-manager/users/2')}?wsid=${blog}`);
    expect(gone.json()).toEqual({ id: 2, deleted: true });
    expect(asked[3]).toEqual({ ...site, action: 'users.delete', input: { id: 2 } });

    const log = await live.t.app.db
      .selectFrom('server_activity')
      .select(['message', 'error'])
      .where('server_id', '=', agent.server.id)
      .orderBy('id', 'desc')
      .limit(3)
      .execute();
    expect(log.map((l) => l.message)).toEqual([
      'Delete user #2 (WordPress, web app blog)',
      "Change user #2's password (WordPress, web app blog)",
      'Add the user author1 as author (WordPress, web app blog)',
    ]);
    expect(JSON.stringify(log)).not.toContain(PASSWORD);
  });

  it("answers the site's refusal: the last administrator stays (409, logged as failed)", async () => {
    refuse = new OpError('conflict', 'The site needs an administrator: this is the last one');
    const res = await call('DELETE', `${path('wp-manager/users/1')}?wsid=${blog}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/last one/);
    refuse = new OpError('invalid', 'A user has this login already', 'login');
    const dup = await call('POST', `${path('wp-manager/users')}?wsid=${blog}`, {
      login: 'author1',
      email: 'x@example.com',
      role: 'author',
      password: PASSWORD,
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors).toEqual({ login: 'A user has this login already' });
  });

  it('lists, switches and deletes plugins, and takes a zip on wp/webstacks/{appId}', async () => {
    const list = await call('GET', `${path('wp-manager/plugins')}?wsid=${blog}`);
    expect(list.json()).toEqual({ plugins });
    const on = await call(
      'PATCH',
      `${path('wp-manager/plugins')}?wsid=${blog}&plugin=akismet/akismet.php&action=activate`,
    );
    expect(on.statusCode, on.body).toBe(200);
    const off = await call(
      'PATCH',
      `${path('wp-manager/plugins')}?wsid=${blog}&plugin=akismet/akismet.php&action=deactivate`,
    );
    expect(off.statusCode).toBe(200);
    const del = await call(
      'DELETE',
      `${path('wp-manager/plugins')}?wsid=${blog}&plugin=akismet/akismet.php`,
    );
    expect(del.statusCode).toBe(200);
    const zip = Buffer.from('PK\u0003\u0004 a zip').toString('base64');
    const up = await call('PATCH', path(`wp/webstacks/${blog}`), { file_name: 'sd.zip', zip });
    expect(up.statusCode, up.body).toBe(200);
    expect(asked.map((a) => [a.action, a.input])).toEqual([
      ['plugins.list', {}],
      ['plugins.activate', { plugin: 'akismet/akismet.php' }],
      ['plugins.deactivate', { plugin: 'akismet/akismet.php' }],
      ['plugins.delete', { plugin: 'akismet/akismet.php' }],
      ['plugins.upload', { zip }],
    ]);
    const plainUpload = await call('PATCH', path(`wp/webstacks/${plain}`), {
      file_name: 'sd.zip',
      zip,
    });
    expect(plainUpload.statusCode).toBe(409);
  });
});
