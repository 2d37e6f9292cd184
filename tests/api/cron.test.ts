import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { parseCrontab, renderCrontab } from '../../features/cron/crontab';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * Cron jobs through the API with a fake agent whose crontabs live in memory (rendered with the
 * agent's own crontab code): statuses, errors at their field, the offline queue and the sweep,
 * the read-back's drift, parallel writes. tests/system/cron.test.ts runs the real crontab.
 */
let live: LiveApp;
let owner: TestUser;
let other: TestUser;
let agent: FakeAgent;
/** The crontab text of each user on the fake server. */
const tabs = new Map<string, string>();
const USERS = new Set(['root', 'alice']);

function fakeCronOps() {
  const read = (user: string) => {
    if (!USERS.has(user)) throw opFieldError('sys_user', `The system user ${user} does not exist`);
    return parseCrontab(tabs.get(user) ?? '');
  };
  return {
    'cron.set': async (a: { sys_user: string; id: number; schedule: string; command: string }) => {
      const tab = read(a.sys_user);
      // Read, yield, write: without the agent's lock, parallel sets would lose jobs here.
      await new Promise((r) => setTimeout(r, 5));
      tab.jobs = [...tab.jobs.filter((j) => j.id !== a.id), a];
      tabs.set(a.sys_user, renderCrontab(tab));
      return { set: true };
    },
    'cron.remove': async (a: { sys_user: string; id: number }) => {
      const tab = read(a.sys_user);
      const before = tab.jobs.length;
      tab.jobs = tab.jobs.filter((j) => j.id !== a.id);
      tabs.set(a.sys_user, renderCrontab(tab));
      return { removed: tab.jobs.length < before };
    },
    'cron.list': async (a: { sys_user: string }) => ({ jobs: read(a.sys_user).jobs, own_lines: 0 }),
    'cron.run': async (a: { sys_user: string; command: string }) => ({
      code: 0,
      output: `${a.sys_user} ran ${a.command}`,
      truncated: false,
      timed_out: false,
    }),
  };
}

const base = () => `/api/v1/cronjobs/servers/${agent.server.id}/users/${owner.id}`;
const one = (id: number) => `/api/v1/cronjobs/${id}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });
const job = (over: Record<string, unknown> = {}) => ({
  label: 'nightly',
  sys_user: 'alice',
  schedule: '30 3 * * *',
  command: 'php /home/alice/artisan schedule:run',
  ...over,
});

beforeAll(async () => {
  live = await startLiveApp();
  [owner, other] = await Promise.all([live.t.user(), live.t.user()]);
  agent = await startFakeAgent(live, owner, fakeCronOps());
  // alice is a system user the panel made on this server.
  await live.t.app.db
    .insertInto('sysusers')
    .values({
      server_id: agent.server.id,
      user_name: 'alice',
      quota_hard: 0,
      quota_soft: 0,
      status: 'active',
      error: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })
    .execute();
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('cron jobs', () => {
  it('creates a job: active once the crontab holds it, its schedule in words', async () => {
    const res = await call('POST', base(), job({ command: 'date +%Y-%m-%d >> /tmp/d' }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      status: 'active',
      sys_user: 'alice',
      schedule: '30 3 * * *',
      schedule_text: 'At 03:30 every day',
      error: null,
    });
    // `%` is escaped for cron, and reads back as given.
    expect(tabs.get('alice')).toContain(`# stackdeck:job ${created.id}\n30 3 * * * date +\\%Y`);
    const got = await call('GET', one(created.id));
    expect(got.json().command).toBe('date +%Y-%m-%d >> /tmp/d');
  });

  it('refuses a bad schedule, a second line and an unknown user at their fields', async () => {
    const bad = await call('POST', base(), job({ schedule: '61 * * * *' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('schedule');
    const lines = await call('POST', base(), job({ command: 'true\n* * * * * evil' }));
    expect(lines.statusCode).toBe(400);
    expect(lines.json().errors).toHaveProperty('command');
    const nobody = await call('POST', base(), job({ sys_user: 'bob' }));
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().errors.sys_user).toMatch(/not a system user/);
  });

  it("shows the server's refusal at its field, and keeps no row of it", async () => {
    USERS.delete('alice');
    try {
      const res = await call('POST', base(), job({ label: 'refused' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.sys_user).toMatch(/does not exist/);
      const list = (await call('GET', base())).json();
      expect(list.data.map((j: { label: string }) => j.label)).not.toContain('refused');
    } finally {
      USERS.add('alice');
    }
  });

  it('keeps a failed job with the reason when the server fails it', async () => {
    const set = agent.ops['cron.set']!;
    agent.ops['cron.set'] = () => {
      throw new OpError('check_failed', 'crontab refused the jobs: bad minute');
    };
    try {
      const res = await call('POST', base(), job({ label: 'broken' }));
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/bad minute/);
      const list = (await call('GET', base())).json();
      const row = list.data.find((j: { label: string }) => j.label === 'broken');
      expect(row).toMatchObject({ status: 'failed', error: expect.stringMatching(/bad minute/) });
      // Mended and saved again, it becomes active.
      agent.ops['cron.set'] = set;
      const retry = await call('PUT', one(row.id), job({ label: 'broken' }));
      expect(retry.statusCode).toBe(200);
      expect(retry.json().status).toBe('active');
    } finally {
      agent.ops['cron.set'] = set;
    }
  });

  it('changes and deletes a job on the server', async () => {
    const { id } = (await call('POST', base(), job({ label: 'change-me' }))).json();
    const put = await call('PUT', one(id), job({ label: 'changed', schedule: '*/5 * * * *' }));
    expect(put.json()).toMatchObject({ status: 'active', schedule_text: 'Every 5 minutes' });
    expect(parseCrontab(tabs.get('alice')!).jobs.find((j) => j.id === id)?.schedule).toBe(
      '*/5 * * * *',
    );
    const del = await call('DELETE', one(id));
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id, status: 'deleted' });
    expect(parseCrontab(tabs.get('alice')!).jobs.some((j) => j.id === id)).toBe(false);
    expect((await call('GET', one(id))).statusCode).toBe(404);
  });

  it('pauses a job: kept in the panel, out of the crontab, back when enabled', async () => {
    const { id } = (await call('POST', base(), job({ label: 'pausable' }))).json();
    const held = () => parseCrontab(tabs.get('alice')!).jobs.some((j) => j.id === id);
    expect(held()).toBe(true);
    const paused = await call('PUT', one(id), job({ label: 'pausable', enabled: false }));
    expect(paused.json()).toMatchObject({ status: 'active', enabled: false });
    expect(held()).toBe(false);
    await call('PUT', one(id), job({ label: 'pausable', enabled: true }));
    expect(held()).toBe(true);
  });

  it("moves a job to another user's crontab", async () => {
    const { id } = (await call('POST', base(), job({ label: 'mover' }))).json();
    await call('PUT', one(id), job({ label: 'mover', sys_user: 'root' }));
    expect(parseCrontab(tabs.get('alice')!).jobs.some((j) => j.id === id)).toBe(false);
    expect(parseCrontab(tabs.get('root')!).jobs.some((j) => j.id === id)).toBe(true);
    await call('DELETE', one(id));
  });

  it('runs a job now, as its user, and logs it', async () => {
    const { id } = (await call('POST', base(), job({ label: 'now', command: 'echo hi' }))).json();
    const res = await call(
      'POST',
      `/api/v1/cronjobs/${id}/run/servers/${agent.server.id}/users/${owner.id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code: 0,
      output: 'alice ran echo hi',
      truncated: false,
      timed_out: false,
    });
  });

  it('lands 20 jobs created at once (the agent holds the crontab per user)', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', base(), job({ label: `batch-${i}`, sys_user: 'root' })),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const ids = results.map((r) => r.json().id as number);
    const held = parseCrontab(tabs.get('root')!).jobs.map((j) => j.id);
    for (const id of ids) expect(held).toContain(id);
  });

  it('pages and filters the list by system user', async () => {
    const page = (await call('GET', `${base()}?perPage=5&page=1&sys_user=root`)).json();
    expect(page.total).toBe(20);
    expect(page.data).toHaveLength(5);
    expect(new Set(page.data.map((j: { sys_user: string }) => j.sys_user))).toEqual(
      new Set(['root']),
    );
  });

  it('reads back drift: a job gone from the crontab, a job changed by hand', async () => {
    const gone = (await call('POST', base(), job({ label: 'gone' }))).json();
    const edited = (await call('POST', base(), job({ label: 'edited' }))).json();
    const tab = parseCrontab(tabs.get('alice')!);
    tab.jobs = tab.jobs
      .filter((j) => j.id !== gone.id)
      .map((j) => (j.id === edited.id ? { ...j, command: 'rm -rf /tmp/x' } : j));
    tabs.set('alice', renderCrontab(tab));
    const list = (await call('GET', `${base()}?sync=true&sys_user=alice&perPage=100`)).json();
    const drift = Object.fromEntries(
      list.data.map((j: { id: number; drift: string | null }) => [j.id, j.drift]),
    );
    expect(drift[gone.id]).toBe('missing');
    expect(drift[edited.id]).toBe('changed');
    // Saving the job again puts it back as the panel has it.
    await call('PUT', one(gone.id), job({ label: 'gone' }));
    const again = (await call('GET', `${base()}?sync=true&sys_user=alice&perPage=100`)).json();
    expect(again.data.find((j: { id: number }) => j.id === gone.id).drift).toBeNull();
  });

  it('queues changes while the server is offline and applies them when it is back', async () => {
    await agent.disconnect();
    const created = await call('POST', base(), job({ label: 'while-offline' }));
    expect(created.statusCode).toBe(202);
    expect(created.json().status).toBe('pending');
    const { id } = created.json();
    const removed = (await call('POST', base(), job({ label: 'remove-offline' }))).json();
    const del = await call('DELETE', one(removed.id));
    expect(del.statusCode).toBe(202);
    expect(del.json().status).toBe('deleting');
    expect(parseCrontab(tabs.get('alice')!).jobs.some((j) => j.id === id)).toBe(false);

    await agent.reconnect();
    const end = Date.now() + 5000;
    let row = (await call('GET', one(id))).json();
    while (row.status !== 'active' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      row = (await call('GET', one(id))).json();
    }
    expect(row.status).toBe('active');
    expect(parseCrontab(tabs.get('alice')!).jobs.some((j) => j.id === id)).toBe(true);
    while ((await call('GET', one(removed.id))).statusCode !== 404 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect((await call('GET', one(removed.id))).statusCode).toBe(404);
  });

  it("answers 404 for another user's server and for a job id of another server", async () => {
    const foreign = await live.t.call(
      'GET',
      base().replace(`/users/${owner.id}`, `/users/${other.id}`),
      {
        token: other.token,
      },
    );
    expect(foreign.statusCode).toBe(404);
    const otherServer = await live.newServer(owner, 'second');
    const mine = (await call('POST', base(), job({ label: 'mine' }))).json();
    const wrong = await call(
      'DELETE',
      `/api/v1/cronjobs/${mine.id}/servers/${otherServer.id}/users/${owner.id}`,
    );
    expect(wrong.statusCode).toBe(404);
    expect((await call('GET', one(mine.id))).json().status).toBe('active');
  });
});
