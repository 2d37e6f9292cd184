import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The WordPress installer's logic with a fake agent: the checks before anything is made, the
 * task's ordered events, the secrets (generated, never fixed, never in the activity log), and
 * the undo of every step when one fails. tests/system/wordpress.test.ts installs it for real.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
const apps = new Set<string>();
const databases = new Set<string>();
const dbUsers = new Set<string>();
let failInstall: string | null = null;

const fakeOps = () => ({
  'webapp.apply': (a: { name: string; user: string }) => {
    apps.add(a.name);
    return { path: `/home/${a.user}/apps/${a.name}` };
  },
  'webapp.remove': (a: { name: string }) => ({ removed: apps.delete(a.name) }),
  'mariadb.db.set': (a: { name: string }) => {
    databases.add(a.name);
    return { set: true };
  },
  'mariadb.db.drop': (a: { name: string }) => ({ dropped: databases.delete(a.name) }),
  'mariadb.user.set': (a: { name: string }) => {
    dbUsers.add(a.name);
    return { set: true };
  },
  'mariadb.user.drop': (a: { name: string }) => ({ dropped: dbUsers.delete(a.name) }),
  'release.fetch': (a: { dest_dir: string }) => ({ path: a.dest_dir, files: 1, bytes: 1 }),
  'wordpress.install': (_a: unknown, ctx: { progress(e: string, c: number): void }) => {
    ctx.progress('Running the WordPress installer', 8);
    if (failInstall) throw new OpError('failed', failInstall);
    return { version: '6.1.9', user_id: 1 };
  },
});

const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

const body = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  domains: [`${name}.example.com`],
  sys_user: 'alice',
  title: 'A blog',
  admin_user: 'editor1',
  admin_email: 'editor@example.com',
  ...more,
});

interface Task {
  status: string;
  events: { event: string; code: number }[];
}
async function settled(id: number): Promise<Task> {
  for (let i = 0; i < 200; i++) {
    const res = await call('GET', `/api/v1/clone-events/users/${owner.id}?id=${id}`);
    const task = (res.json() as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the install did not end');
}

async function pin(sha = 'a'.repeat(64)) {
  const stamp = new Date().toISOString();
  await live.t.app.db
    .insertInto('app_releases')
    .values({
      app: 'wordpress',
      version: '6.1.9',
      url: 'http://127.0.0.1:1/wordpress-6.1.9.tar.gz',
      sha256: sha,
      size: null,
      format: 'tar.gz',
      is_default: 1,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeOps(), 'wp-1');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('POST wordpress/servers/{sid}/users/{uid}', () => {
  it('is refused while WordPress has no usable source, making nothing', async () => {
    // A fresh panel seeds Debian's package (usable) and the official source (usable once a
    // check pinned it): without the first, the second is not enough yet. The fake agent
    // answers `release.fetch`, so the tests below pin a release by hand.
    await live.t.app.db
      .deleteFrom('app_releases')
      .where('app', '=', 'wordpress')
      .where('source', '=', 'debian')
      .execute();
    const res = await call('POST', at('wordpress'), body('blog'));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/No release of WordPress is pinned yet/);
    expect(apps.size).toBe(0);
    const tasks = await call('GET', `/api/v1/clone-events/users/${owner.id}`);
    expect(tasks.json().total).toBe(0);
  });

  it('makes the app, its database and user, fetches and installs, as ordered events', async () => {
    await pin();
    agent.calls.length = 0;
    const res = await call('POST', at('wordpress'), body('blog'));
    expect(res.statusCode, res.body).toBe(202);
    const answer = res.json() as {
      task_id: number;
      webapp_id: number;
      login: { url: string; user: string; password: string };
    };
    expect(answer.login.url).toBe('http://blog.example.com/wp-login.php');
    expect(answer.login.user).toBe('editor1');
    expect(answer.login.password).toMatch(/^\S{20}$/);
    const task = await settled(answer.task_id);
    expect(task.status).toBe('completed');
    expect(task.events).toEqual([
      { event: 'Creating the web app', code: 1 },
      { event: 'Web app blog is made', code: 1 },
      { event: 'Creating the database wp_blog', code: 2 },
      { event: 'Creating the database user wp_blog', code: 3 },
      { event: 'Downloading WordPress 6.1.9', code: 4 },
      { event: 'Installing WordPress', code: 6 },
      { event: 'Running the WordPress installer', code: 8 },
      { event: 'WordPress is installed', code: 10 },
    ]);
    expect(agent.calls.map((c) => c.name)).toEqual([
      'webapp.apply',
      'mariadb.db.set',
      'mariadb.user.set',
      'release.fetch',
      'wordpress.install',
    ]);
    const fetch = agent.calls[3]!.args as Record<string, unknown>;
    expect(fetch).toMatchObject({
      url: 'http://127.0.0.1:1/wordpress-6.1.9.tar.gz',
      sha256: 'a'.repeat(64),
      dest_user: 'alice',
      dest_dir: '/home/alice/apps/blog/.stackdeck-release',
    });
    const wp = agent.calls[4]!.args as Record<string, unknown>;
    expect(wp).toMatchObject({
      user: 'alice',
      app: 'blog',
      web_root: 'public',
      url: 'http://blog.example.com',
      db_name: 'wp_blog',
      db_user: 'wp_blog',
      admin_password: answer.login.password,
    });
    expect(new Set(wp.salts as string[]).size).toBe(8);
    expect(wp.table_prefix).toMatch(/^wp_[a-z0-9]{5}_$/);

    // The app is WordPress; its database and user are the app's.
    const app = await call('GET', at(`webstacks/${answer.webapp_id}`));
    expect(app.json()).toMatchObject({ webapp_type: 'wordpress', status: 'active' });
    const dbs = await call('GET', at(`webstackdb/${answer.webapp_id}`));
    expect(dbs.json().data.map((d: { name: string }) => d.name)).toEqual(['wp_blog']);

    // No secret reaches the activity log.
    const log = await call('GET', at('activity') + '?perPage=100');
    expect(log.body).not.toContain(answer.login.password);
    expect(log.body).not.toContain(wp.db_password as string);
  });

  it('generates other secrets for the next site, and a free database name', async () => {
    const first = agent.calls.find((c) => c.name === 'wordpress.install')!.args as {
      db_password: string;
      salts: string[];
    };
    agent.calls.length = 0;
    const res = await call(
      'POST',
      at('wordpress'),
      body('blog-2', { domains: ['two.example.com'] }),
    );
    expect(res.statusCode, res.body).toBe(202);
    expect((await settled(res.json().task_id)).status).toBe('completed');
    const second = agent.calls.find((c) => c.name === 'wordpress.install')!.args as {
      db_name: string;
      db_password: string;
      salts: string[];
    };
    expect(second.db_name).toBe('wp_blog_2');
    expect(second.db_password).not.toBe(first.db_password);
    expect(second.salts[0]).not.toBe(first.salts[0]);
  });

  it('downloads from the mirror an admin set, still checked against the pinned SHA-256', async () => {
    const admin = await live.t.user({ admin: true });
    const mirror = (value: string | null) =>
      live.t.call('PUT', '/api/v1/admin/app-releases-mirror', {
        token: admin.token,
        body: { mirror: value },
      });
    expect((await mirror('http://127.0.0.1:8081/stackdeck/')).statusCode).toBe(200);
    agent.calls.length = 0;
    const res = await call(
      'POST',
      at('wordpress'),
      body('blog-3', { domains: ['three.example.com'] }),
    );
    expect(res.statusCode, res.body).toBe(202);
    expect((await settled(res.json().task_id)).status).toBe('completed');
    expect(await mirror(null).then((r) => r.statusCode)).toBe(200);
    expect(agent.calls.find((c) => c.name === 'release.fetch')!.args).toMatchObject({
      url: 'http://127.0.0.1:8081/stackdeck/wordpress/wordpress-6.1.9.tar.gz',
      sha256: 'a'.repeat(64),
    });
  });

  it('refuses a name or domain in use at the form, before any task', async () => {
    const before = (await call('GET', `/api/v1/clone-events/users/${owner.id}`)).json().total;
    const res = await call('POST', at('wordpress'), body('blog'));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ name: /app of this name/ });
    const domain = await call(
      'POST',
      at('wordpress'),
      body('other', { domains: ['blog.example.com'] }),
    );
    expect(domain.statusCode).toBe(400);
    expect(domain.json().errors.domains).toMatch(/another app/);
    expect((await call('GET', `/api/v1/clone-events/users/${owner.id}`)).json().total).toBe(before);
  });

  it('undoes every step in reverse when one fails, and names the step', async () => {
    failInstall = 'PHP Fatal error: something broke';
    agent.calls.length = 0;
    const res = await call('POST', at('wordpress'), body('shop'));
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled(res.json().task_id);
    failInstall = null;
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event)).toContain(
      'Installing WordPress failed: PHP Fatal error: something broke',
    );
    expect(task.events.at(-1)?.event).toBe('Everything the install made is removed again');
    expect(agent.calls.map((c) => c.name).slice(-3)).toEqual([
      'mariadb.user.drop',
      'mariadb.db.drop',
      'webapp.remove',
    ]);
    expect(apps.has('shop')).toBe(false);
    expect(databases.has('wp_shop')).toBe(false);
    expect(dbUsers.has('wp_shop')).toBe(false);
    const list = await call('GET', at('webstacks'));
    expect(list.json().data.map((a: { name: string }) => a.name)).not.toContain('shop');
  });

  it('is refused while the server is offline', async () => {
    await agent.disconnect();
    const res = await call('POST', at('wordpress'), body('offline'));
    await agent.reconnect();
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/offline/);
  });
});
