import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Cloning an app with a fake agent: the steps in order (databases, files, the copies of the
 * databases, WordPress's config), their progress on one scale, the addresses to rewrite, and
 * every step undone when one fails. tests/system/wordpress.test.ts clones a real WordPress.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let failDatabase: string | null = null;
const ok =
  <T>(value: T) =>
  () =>
    value;
const progressing =
  (result: unknown) => (_a: unknown, ctx: { progress(e: string, c: number): void }) => {
    ctx.progress('Half way', 5);
    ctx.progress('Done', 10);
    return result;
  };

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(
    live,
    owner,
    {
      'webapp.apply': (a: { name: string; user: string }) => ({
        path: `/home/${a.user}/apps/${a.name}`,
      }),
      'webapp.remove': ok({ removed: true }),
      'mariadb.db.set': ok({ set: true }),
      'mariadb.db.drop': ok({ dropped: true }),
      'mariadb.user.set': ok({ set: true }),
      'mariadb.user.drop': ok({ dropped: true }),
      'clone.files': progressing({ bytes: 10, files: 2, left_out: 0 }),
      'clone.database': (a: unknown, ctx: { progress(e: string, c: number): void }) => {
        if (failDatabase) throw new OpError('failed', failDatabase);
        return progressing({
          tables: 1,
          rows_changed: 1,
          values_skipped: 0,
          refused: [],
        })(a, ctx);
      },
      'wordpress.rewire': ok({ rewired: true }),
    },
    'clone-1',
  );
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, agent.server.id, 'bob');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

async function source(name: string, type = 'custom') {
  const app = await call('POST', at('webstacks'), {
    name,
    domains: [`${name}.example.com`],
    sys_user: 'alice',
  });
  expect(app.statusCode, app.body).toBe(201);
  const id = app.json().id as number;
  const db = await call('POST', at(`webstackdb/${id}`), { name: `${name.replace(/-/g, '_')}_db` });
  expect(db.statusCode, db.body).toBe(201);
  await live.t.app.db
    .updateTable('webapps')
    .set({ webapp_type: type })
    .where('id', '=', id)
    .execute();
  return id;
}

async function settled(taskId: number) {
  for (let i = 0; i < 200; i++) {
    const res = await call('GET', `/api/v1/clone-events/users/${owner.id}?id=${taskId}`);
    const task = res.json().data[0] as {
      kind: string;
      status: string;
      events: { event: string; code: number }[];
    };
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the clone did not end');
}

describe('POST clone-webapp/webstacks/{appId}/servers/{sid}/users/{uid}', () => {
  it('copies a WordPress app to its own domain and user, step by step on one scale', async () => {
    const id = await source('blog', 'wordpress');
    agent.calls.length = 0;
    const res = await call('POST', at(`clone-webapp/webstacks/${id}`), {
      name: 'blog-copy',
      domains: ['copy.example.com'],
      sys_user: 'bob',
    });
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled(res.json().task_id);
    expect(task).toMatchObject({ kind: 'clone', status: 'completed' });
    expect(task.events.at(-1)).toEqual({ event: 'Clone completed', code: 10 });
    const codes = task.events.map((e) => e.code);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(agent.calls.map((c) => c.name)).toEqual([
      'webapp.apply',
      'mariadb.db.set',
      'mariadb.user.set',
      'clone.files',
      'clone.database',
      'wordpress.rewire',
    ]);
    const apply = agent.calls[0]!.args as Record<string, unknown>;
    expect(apply).toMatchObject({ name: 'blog-copy', user: 'bob', webapp_type: 'wordpress' });
    expect(agent.calls[3]!.args).toMatchObject({
      from_user: 'alice',
      from_dir: '/home/alice/apps/blog',
      to_user: 'bob',
      to_dir: '/home/bob/apps/blog-copy',
    });
    const copy = agent.calls[4]!.args as { from: string; to: string; pairs: [string, string][] };
    expect(copy).toMatchObject({ from: 'blog_db', to: 'cl_blog_copy' });
    expect(copy.pairs).toContainEqual(['https://blog.example.com', 'https://copy.example.com']);
    expect(agent.calls[5]!.args).toMatchObject({
      databases: [{ from: 'blog_db', to: 'cl_blog_copy' }],
      db_user: 'cl_blog_copy',
    });
    // Files and database copy at once: their progress (0..10 each) on the task's 3..9.
    const halfway = task.events.filter((e) => e.event === 'Half way').map((e) => e.code);
    expect(halfway).toHaveLength(2);
    for (const code of halfway) expect(code).toBeGreaterThanOrEqual(3);
    for (const code of halfway) expect(code).toBeLessThanOrEqual(9);
  });

  it('a plain app gets no WordPress step', async () => {
    const id = await source('shop');
    agent.calls.length = 0;
    const res = await call('POST', at(`clone-webapp/webstacks/${id}`), {
      name: 'shop-copy',
      domains: ['shop-copy.example.com'],
      sys_user: 'alice',
    });
    expect((await settled(res.json().task_id)).status).toBe('completed');
    expect(agent.calls.map((c) => c.name)).not.toContain('wordpress.rewire');
  });

  it('undoes everything it made when the database copy fails', async () => {
    const id = await source('news');
    failDatabase = 'mariadb-dump: Got error 1045';
    agent.calls.length = 0;
    const res = await call('POST', at(`clone-webapp/webstacks/${id}`), {
      name: 'news-copy',
      domains: ['news-copy.example.com'],
      sys_user: 'alice',
    });
    const task = await settled(res.json().task_id);
    failDatabase = null;
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event)).toContain(
      'Copying the files and databases of news failed: mariadb-dump: Got error 1045',
    );
    expect(agent.calls.map((c) => c.name).slice(-3)).toEqual([
      'mariadb.user.drop',
      'mariadb.db.drop',
      'webapp.remove',
    ]);
    const apps = await call('GET', at('webstacks'));
    expect(apps.json().data.map((a: { name: string }) => a.name)).not.toContain('news-copy');
  });

  it('refuses to clone an app that is not active', async () => {
    const id = await source('draft');
    await live.t.app.db
      .updateTable('webapps')
      .set({ status: 'failed' })
      .where('id', '=', id)
      .execute();
    const res = await call('POST', at(`clone-webapp/webstacks/${id}`), {
      name: 'draft-copy',
      domains: ['draft-copy.example.com'],
      sys_user: 'alice',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/only an active app is cloned/);
  });
});
