import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { AppSpec } from '../../features/webapps/resource';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The Node.js installer's logic with a fake agent: no catalogue release needed, the task's
 * ordered events, the port allocator (never one port twice, not even for installs at once,
 * never one the server listens on), the undo of every step, the git address refused at the
 * form, and the port freed with the app. tests/system/nodejs.test.ts runs it for real.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
/** The last spec each app was applied with. */
const specs = new Map<string, AppSpec>();
const programs = new Map<string, number>();
let failStart: string | null = null;

const fakeOps = () => ({
  'webapp.apply': (a: AppSpec) => {
    specs.set(a.name, a);
    return { path: `/home/${a.user}/apps/${a.name}` };
  },
  'webapp.remove': (a: { name: string }) => {
    programs.delete(a.name);
    return { removed: specs.delete(a.name) };
  },
  // Something of the server's own listens on 3000: the allocator must skip it.
  'node.ports': () => ({ ports: [22, 80, 3000] }),
  'node.fetch': (a: { user: string; app: string }) => ({
    path: `/home/${a.user}/apps/${a.app}/current`,
    commit: 'a'.repeat(40),
    npm: false,
  }),
  'node.start': (a: { app: string; port: number }) => {
    if (failStart) throw new OpError('failed', failStart);
    programs.set(a.app, a.port);
    return { state: 'RUNNING', pid: 4242 };
  },
  'node.remove': (a: { app: string }) => ({ removed: programs.delete(a.app) }),
  'supervisor.set': () => ({ state: 'RUNNING' }),
});

const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

const body = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  domains: [`${name}.example.com`],
  sys_user: 'alice',
  git_url: 'https://git.example.com/acme/app.git',
  ...more,
});

interface Task {
  status: string;
  events: { event: string; code: number }[];
}
async function settled(id: number): Promise<Task> {
  for (let i = 0; i < 300; i++) {
    const res = await call('GET', `/api/v1/clone-events/users/${owner.id}?id=${id}`);
    const task = (res.json() as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the install did not end');
}

const portRows = () => live.t.app.db.selectFrom('node_ports').selectAll().orderBy('port').execute();

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeOps(), 'node-1');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('POST nodejs/servers/{sid}/users/{uid}', () => {
  it('makes the app, a free port, clones, starts it and points nginx at it, in order', async () => {
    agent.calls.length = 0;
    const res = await call(
      'POST',
      at('nodejs'),
      body('api', { branch: 'main', start: 'src/index.js', env: { GREETING: 'hello' } }),
    );
    expect(res.statusCode, res.body).toBe(202);
    const answer = res.json() as { task_id: number; webapp_id: number; login: unknown };
    expect(answer.login).toBeNull();
    const task = await settled(answer.task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events).toEqual([
      { event: 'Creating the web app', code: 1 },
      { event: 'Web app api is made', code: 1 },
      { event: 'Choosing a port', code: 2 },
      { event: "Port 3001 is the app's", code: 2 },
      { event: 'Cloning https://git.example.com/acme/app.git (main)', code: 3 },
      { event: 'Starting src/index.js under supervisor', code: 6 },
      { event: 'Pointing nginx at the app', code: 8 },
      { event: 'The Node.js app answers at http://api.example.com', code: 10 },
    ]);
    expect(agent.calls.map((c) => c.name)).toEqual([
      'webapp.apply',
      'node.ports',
      'node.fetch',
      'node.start',
      'webapp.apply',
    ]);
    expect(agent.calls[2]!.args).toEqual({
      user: 'alice',
      app: 'api',
      git_url: 'https://git.example.com/acme/app.git',
      branch: 'main',
    });
    expect(agent.calls[3]!.args).toEqual({
      user: 'alice',
      app: 'api',
      entry: 'src/index.js',
      port: 3001,
      env: { GREETING: 'hello' },
    });
    // First served as a plain site, then proxied to its port; no PHP either time.
    expect(agent.calls[0]!.args).toMatchObject({ proxy_port: null, php_version: null });
    expect(specs.get('api')).toMatchObject({
      webapp_type: 'nodejs',
      proxy_port: 3001,
      php_version: null,
    });

    const app = await call('GET', at(`webstacks/${answer.webapp_id}`));
    expect(app.json()).toMatchObject({
      webapp_type: 'nodejs',
      status: 'active',
      php_version: null,
    });
    // A Node.js app runs no PHP: the field cannot be set later either.
    const php = await live.t.call('PATCH', at(`webstacks/${answer.webapp_id}`), {
      token: owner.token,
      body: { php_version: '8.2' },
    });
    expect(php.statusCode).toBe(400);
    expect(php.json().errors.php_version).toMatch(/Node\.js app runs no PHP/);
  });

  it('never hands out one port twice, not even to installs at once', async () => {
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const answers = await Promise.all(names.map((n) => call('POST', at('nodejs'), body(n))));
    for (const res of answers) expect(res.statusCode, res.body).toBe(202);
    const tasks = await Promise.all(answers.map((r) => settled(r.json().task_id)));
    expect(tasks.map((t) => t.status)).toEqual(names.map(() => 'completed'));
    const ports = [...names, 'api'].map((n) => specs.get(n)!.proxy_port);
    expect(new Set(ports).size).toBe(7);
    expect(ports).not.toContain(3000);
    expect([...ports].sort()).toEqual([3001, 3002, 3003, 3004, 3005, 3006, 3007]);
    expect((await portRows()).map((r) => r.port)).toEqual([
      3001, 3002, 3003, 3004, 3005, 3006, 3007,
    ]);
  });

  it('undoes every step in reverse when one fails: program, port and app', async () => {
    failStart = 'The app did not start serving on port 3008: FATAL (Exited too quickly)';
    agent.calls.length = 0;
    const res = await call('POST', at('nodejs'), body('broken'));
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled(res.json().task_id);
    failStart = null;
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event)).toContain(
      'Starting server.js under supervisor failed: The app did not start serving on port 3008: FATAL (Exited too quickly)',
    );
    expect(task.events.at(-1)?.event).toBe('Everything the install made is removed again');
    expect(agent.calls.map((c) => c.name)).toEqual([
      'webapp.apply',
      'node.ports',
      'node.fetch',
      'node.start',
      'node.remove',
      'webapp.remove',
    ]);
    expect(specs.has('broken')).toBe(false);
    expect((await portRows()).map((r) => r.port)).not.toContain(3008);
    const list = await call('GET', at('webstacks'));
    expect(list.json().data.map((a: { name: string }) => a.name)).not.toContain('broken');
  });

  it('frees the port with the app, and the next install gets it again', async () => {
    const id = (await portRows()).find((r) => r.port === 3002)!.webapp_id;
    const del = await call('DELETE', at(`webstacks/${id}`));
    expect(del.statusCode, del.body).toBe(200);
    expect((await portRows()).map((r) => r.port)).not.toContain(3002);
    const res = await call('POST', at('nodejs'), body('again'));
    expect((await settled(res.json().task_id)).status).toBe('completed');
    expect(specs.get('again')!.proxy_port).toBe(3002);
  });

  it('refuses git addresses that are not plain https, at the form, making nothing', async () => {
    const before = (await call('GET', at('webstacks'))).json().total;
    for (const git_url of [
      '--upload-pack=touch /tmp/x',
      'ext::sh -c touch% /tmp/pwned',
      'file:///etc/passwd',
      '/home/alice/repo',
      'git@github.com:acme/app.git',
      'http://github.com/acme/app.git',
      'https://user:secret@github.com/acme/app.git',
    ]) {
      const res = await call('POST', at('nodejs'), body('bad', { git_url }));
      expect(res.statusCode, git_url).toBe(400);
      expect(res.json().errors.git_url, git_url).toBeTruthy();
      expect(res.body).not.toContain('secret');
    }
    const bad = await call(
      'POST',
      at('nodejs'),
      body('bad', { start: '../../etc/x.js', branch: '-x' }),
    );
    expect(Object.keys(bad.json().errors).sort()).toEqual(['branch', 'start']);
    expect((await call('GET', at('webstacks'))).json().total).toBe(before);
  });

  it('refuses an app named like a supervisor job of the server (their files would clash)', async () => {
    const job = await live.t.call('POST', at('svjobs'), {
      token: owner.token,
      body: { name: 'worker', command: '/bin/true', directory: '/tmp', user: 'alice' },
    });
    expect([201, 202], job.body).toContain(job.statusCode);
    const res = await call('POST', at('nodejs'), body('worker'));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.name).toMatch(/supervisor job/);
    // And the other way round: no job takes the name of a Node.js app.
    const clash = await live.t.call('POST', at('svjobs'), {
      token: owner.token,
      body: { name: 'api', command: '/bin/true', directory: '/tmp', user: 'alice' },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().errors.name).toMatch(/Node\.js app/);
  });

  it('is refused while the server is offline', async () => {
    await agent.disconnect();
    const res = await call('POST', at('nodejs'), body('offline'));
    await agent.reconnect();
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/offline/);
  });
});
