import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opFieldError } from '../../agent/lib/opError';
import { type Program, parseProgram, renderProgram } from '../../features/supervisor/program';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Supervisor jobs through the API with a fake agent whose program files and processes live in
 * memory (files rendered with the agent's own code): statuses, errors at their field, names,
 * rebuild, the process list and actions, the offline queue. tests/system/supervisor.test.ts
 * runs the real supervisord.
 */
let live: LiveApp;
let owner: TestUser;
let other: TestUser;
let agent: FakeAgent;
/** The fake server's program files and process states, by job name. */
const files = new Map<string, string>();
const states = new Map<string, string>();

function fakeSupervisorOps() {
  const procs = (name?: string) =>
    [...states]
      .filter(([n]) => !name || n === name)
      .map(([n, state]) => ({
        name: n,
        process: `${n}_00`,
        state,
        pid: state === 'RUNNING' ? 100 : null,
        uptime: state === 'RUNNING' ? 5 : null,
        description: '',
      }));
  return {
    'supervisor.set': (p: Program) => {
      if (p.command.startsWith('/bin/false'))
        throw opFieldError('command', 'The program did not stay running: FATAL');
      files.set(p.name, renderProgram(p, `/home/${p.user}`));
      states.set(p.name, p.autostart ? 'RUNNING' : 'STOPPED');
      return { state: states.get(p.name)! };
    },
    'supervisor.remove': (a: { name: string }) => {
      states.delete(a.name);
      return { removed: files.delete(a.name) };
    },
    'supervisor.status': () => procs(),
    'supervisor.list': () => [...files].map(([name, text]) => parseProgram(name, text)),
    'supervisor.control': (a: { name: string; action: string }) => {
      states.set(a.name, a.action === 'stop' ? 'STOPPED' : 'RUNNING');
      return procs(a.name);
    },
    'supervisor.log': (a: { name: string; process: number }) => ({
      text: `${a.name} ${a.process} said hello\n`,
      truncated: false,
    }),
  };
}

const base = (p = 'svjobs') => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  token = owner.token,
) => live.t.call(method, url, { token, body });
const job = (over: Record<string, unknown> = {}) => ({
  name: 'queue',
  command: 'php artisan queue:work --sleep=3',
  directory: '/home/alice',
  user: 'alice',
  ...over,
});

beforeAll(async () => {
  live = await startLiveApp();
  [owner, other] = await Promise.all([live.t.user(), live.t.user()]);
  agent = await startFakeAgent(live, owner, fakeSupervisorOps());
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('supervisor jobs', () => {
  it('adds a job: active once the server runs it, with stopasgroup and killasgroup', async () => {
    const res = await call('POST', base(), job({ command: 'echo 100% done' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'queue',
      status: 'active',
      numprocs: 1,
      autostart: true,
      autorestart: true,
      error: null,
    });
    const file = files.get('queue')!;
    expect(file).toContain(
      '[program:stackdeck-queue]\ncommand=/usr/local/lib/stackdeck/run-limited -- echo 100%% done\n',
    );
    expect(file).toContain('stopasgroup=true\nkillasgroup=true');
    const procs = await call('GET', base('svjobs/procs'));
    expect(procs.json().data).toEqual([
      expect.objectContaining({ name: 'queue', state: 'RUNNING' }),
    ]);
  });

  it('refuses bad input at its field before the server hears of it', async () => {
    const calls = agent.calls.length;
    const bad = await call(
      'POST',
      base(),
      job({ name: 'Bad Name', command: 'a ; b', directory: '../etc', numprocs: 50 }),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual([
      'command',
      'directory',
      'name',
      'numprocs',
    ]);
    const taken = await call('POST', base(), job());
    expect(taken.json().errors).toEqual({ name: 'This server has a job of this name' });
    const stranger = await call('POST', base(), job({ name: 'x', user: 'mallory' }));
    expect(stranger.json().errors.user).toMatch(/not a system user/);
    // The refused bodies never reached the server (a sweep of earlier rows may run meanwhile).
    const refused = agent.calls
      .slice(calls)
      .filter((c) =>
        (['Bad Name', 'x'] as unknown[]).includes((c.args as { name?: unknown }).name),
      );
    expect(refused).toEqual([]);
  });

  it("answers the server's refusal at its field and keeps nothing", async () => {
    const res = await call('POST', base(), job({ name: 'broken', command: '/bin/false' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.command).toMatch(/did not stay running/);
    const list = await call('GET', base());
    expect(list.json().data.map((j: { name: string }) => j.name)).toEqual(['queue']);
  });

  it('stops, starts and restarts through handle, and reads the log', async () => {
    const stop = await call('GET', `${base('svjobs/handle')}?name=queue&action=stop`);
    expect(stop.json().data[0].state).toBe('STOPPED');
    const start = await call('GET', `${base('svjobs/handle')}?name=queue&action=start`);
    expect(start.json().data[0].state).toBe('RUNNING');
    const bad = await call('GET', `${base('svjobs/handle')}?name=queue&action=kill`);
    expect(bad.statusCode).toBe(400);
    const unknown = await call('GET', `${base('svjobs/handle')}?name=nope&action=stop`);
    expect(unknown.json().errors).toEqual({ name: 'No job nope on this server' });
    const log = await call('GET', `${base('svjobs/logs')}?name=queue`);
    expect(log.json()).toEqual({ text: 'queue 0 said hello\n', truncated: false });
  });

  it('changes a job with ?rebuild=true, shows drift, and rebuilds all', async () => {
    const changed = await call('POST', `${base()}?rebuild=true`, job({ numprocs: 3 }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'queue', numprocs: 3, status: 'active' });
    expect(files.get('queue')).toContain('numprocs=3\n');

    files.set('queue', files.get('queue')!.replace('numprocs=3', 'numprocs=1'));
    const synced = await call('GET', `${base()}?sync=true`);
    expect(synced.json().data[0].drift).toBe('changed');
    const all = await call('GET', base('svjobs/rebuild'));
    expect(all.json()).toEqual({ rebuilt: 1, failed: 0, waiting: 0 });
    expect(files.get('queue')).toContain('numprocs=3\n');
    const missing = await call('POST', `${base()}?rebuild=true`, job({ name: 'ghost' }));
    expect(missing.json().errors).toEqual({ name: 'No job ghost on this server' });
  });

  it('queues a job while the server is offline and runs it when it is back', async () => {
    await agent.disconnect();
    const res = await call('POST', base(), job({ name: 'later' }));
    expect(res.statusCode).toBe(202);
    expect(res.json().status).toBe('pending');
    await agent.reconnect();
    await expect
      .poll(
        async () =>
          (await call('GET', base())).json().data.find((j: { name: string }) => j.name === 'later')
            ?.status,
      )
      .toBe('active');
    expect(files.has('later')).toBe(true);
  });

  it('deletes by name; another tenant cannot name the job', async () => {
    const foreign = await call('DELETE', base('svjobs/queue'), undefined, other.token);
    expect(foreign.statusCode).toBe(404);
    const del = await call('DELETE', base('svjobs/queue'));
    expect(del.json()).toMatchObject({ status: 'deleted' });
    expect(files.has('queue')).toBe(false);
    expect((await call('DELETE', base('svjobs/queue'))).statusCode).toBe(404);
  });
});
