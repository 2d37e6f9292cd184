import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import { programOf } from '../../features/nodejs/serverProgram';
import type { AppSpec } from '../../features/webapps/resource';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Cloning a Node.js app with a fake agent: after the files, the copy gets a port of its own,
 * its own program (the copy's user, the source's entry file and environment) and then nginx
 * proxying to that port; a failing step undoes it all, the port freed. A source whose program
 * the panel does not know is refused before anything is made. tests/system/nodejs.test.ts
 * clones a real one.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
const specs = new Map<string, AppSpec>();
const programs = new Map<string, { user: string; port: number }>();
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
  'node.ports': () => ({ ports: [22, 80, 3000] }),
  'node.fetch': (a: { user: string; app: string }) => ({
    path: `/home/${a.user}/apps/${a.app}/current`,
    commit: 'a'.repeat(40),
    npm: false,
  }),
  'node.start': (a: { app: string; user: string; port: number }) => {
    if (failStart && a.app.endsWith('-copy')) throw new OpError('failed', failStart);
    programs.set(a.app, { user: a.user, port: a.port });
    return { state: 'RUNNING', pid: 4242 };
  },
  'node.remove': (a: { app: string }) => ({ removed: programs.delete(a.app) }),
  'clone.files': () => ({ bytes: 10, files: 2, left_out: 0 }),
  'supervisor.set': () => ({ state: 'RUNNING' }),
});

const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

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
  throw new Error('the task did not end');
}

/** A Node.js app installed through the panel (so its port and program are the panel's). */
async function installed(name: string): Promise<number> {
  const res = await call('POST', at('nodejs'), {
    name,
    domains: [`${name}.example.com`],
    sys_user: 'alice',
    git_url: 'https://git.example.com/acme/app.git',
    start: 'src/index.js',
    env: { GREETING: 'hello', API_URL: 'https://api.example.net' },
  });
  expect(res.statusCode, res.body).toBe(202);
  const task = await settled(res.json().task_id);
  expect(task.status, JSON.stringify(task.events)).toBe('completed');
  return res.json().webapp_id as number;
}

const clone = (id: number, name: string) =>
  call('POST', at(`clone-webapp/webstacks/${id}`), {
    name,
    domains: [`${name}.example.org`],
    sys_user: 'bob',
  });

const portRows = () => live.t.app.db.selectFrom('node_ports').selectAll().orderBy('port').execute();

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeOps(), 'node-clone-1');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, agent.server.id, 'bob');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('cloning a Node.js app', () => {
  it('gives the copy its own port and program, the same entry and environment, then nginx', async () => {
    const id = await installed('api');
    agent.calls.length = 0;
    const res = await clone(id, 'api-copy');
    expect(res.statusCode, res.body).toBe(202);
    const copyId = res.json().webapp_id as number;
    const task = await settled(res.json().task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events.map((e) => e.event)).toEqual([
      'Creating the web app',
      'Web app api-copy is made',
      'Copying the files of api',
      'Choosing a port for the copy',
      "Port 3002 is the copy's",
      'Starting src/index.js of the copy under supervisor',
      'Pointing nginx at the copy',
      'Clone completed',
    ]);
    const codes = task.events.map((e) => e.code);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(agent.calls.map((c) => c.name)).toEqual([
      'webapp.apply',
      'clone.files',
      'node.ports',
      'node.start',
      'webapp.apply',
    ]);
    // Made as a plain site first, then proxied once its port is known.
    expect(agent.calls[0]!.args).toMatchObject({ name: 'api-copy', proxy_port: null });
    expect(agent.calls[1]!.args).toMatchObject({
      from_dir: '/home/alice/apps/api',
      to_user: 'bob',
      to_dir: '/home/bob/apps/api-copy',
    });
    expect(agent.calls[3]!.args).toEqual({
      user: 'bob',
      app: 'api-copy',
      entry: 'src/index.js',
      port: 3002,
      env: { GREETING: 'hello', API_URL: 'https://api.example.net' },
    });
    expect(specs.get('api-copy')).toMatchObject({
      webapp_type: 'nodejs',
      domains: ['api-copy.example.org'],
      proxy_port: 3002,
      php_version: null,
    });
    // The source keeps its own port and program.
    expect(specs.get('api')!.proxy_port).toBe(3001);
    expect(programs.get('api')).toEqual({ user: 'alice', port: 3001 });
    expect(programs.get('api-copy')).toEqual({ user: 'bob', port: 3002 });
    expect((await portRows()).map((r) => [r.port, r.webapp_id])).toEqual([
      [3001, id],
      [3002, copyId],
    ]);
    // A rebuild of the copy writes its program from its own record.
    expect(await programOf(live.t.app.db, live.t.app.services.box, copyId)).toEqual({
      entry: 'src/index.js',
      env: { GREETING: 'hello', API_URL: 'https://api.example.net' },
    });
  });

  it('undoes the program, the port and the app when the copy does not start', async () => {
    const id = (await portRows()).find((r) => r.port === 3001)!.webapp_id;
    failStart = 'The app did not start serving on port 3003: FATAL (Exited too quickly)';
    agent.calls.length = 0;
    const res = await clone(id, 'broken-copy');
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled(res.json().task_id);
    failStart = null;
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event)).toContain(
      'Starting src/index.js of the copy under supervisor failed: The app did not start serving on port 3003: FATAL (Exited too quickly)',
    );
    expect(task.events.map((e) => e.event)).toContain("Port 3003 is the copy's");
    expect(agent.calls.map((c) => c.name)).toEqual([
      'webapp.apply',
      'clone.files',
      'node.ports',
      'node.start',
      'node.remove',
      'webapp.remove',
    ]);
    expect(agent.calls[4]!.args).toEqual({ app: 'broken-copy' });
    expect((await portRows()).map((r) => r.port)).toEqual([3001, 3002]);
    const list = await call('GET', at('webstacks'));
    expect(list.json().data.map((a: { name: string }) => a.name)).not.toContain('broken-copy');
    // The source is untouched.
    expect(programs.get('api')).toEqual({ user: 'alice', port: 3001 });
  });

  it('refuses a source whose program the panel does not know, making nothing', async () => {
    const id = await installed('old');
    await live.t.app.db.deleteFrom('node_apps').where('webapp_id', '=', id).execute();
    agent.calls.length = 0;
    const res = await clone(id, 'old-copy');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/does not know how old is started/);
    expect(agent.calls).toEqual([]);
  });

  it('refuses a copy named like a supervisor job of the server', async () => {
    const job = await live.t.call('POST', at('svjobs'), {
      token: owner.token,
      body: { name: 'worker', command: '/bin/true', directory: '/tmp', user: 'alice' },
    });
    expect([201, 202], job.body).toContain(job.statusCode);
    const id = (await portRows()).find((r) => r.port === 3001)!.webapp_id;
    agent.calls.length = 0;
    const res = await clone(id, 'worker');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.name).toMatch(/supervisor job/);
    expect(agent.calls.map((c) => c.name)).not.toContain('clone.files');
  });
});
