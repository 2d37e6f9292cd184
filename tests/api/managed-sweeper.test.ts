import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCrontab, renderCrontab } from '../../features/cron/crontab';
import { sweepConnected } from '../../server/managed/sweeper';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { waitFor } from '../waitFor';

/**
 * A server-managed row whose op outlived its answer (a slow server, a panel restart mid-op) is
 * never reported failed while the server may still be at work: it stays pending, the activity
 * says it will be asked again, and the sweep settles it once the server answers.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let tab = '';
/** The cron.set calls the fake server has carried out (the ones that outlived their answer too). */
let applied = 0;

beforeAll(async () => {
  live = await startLiveApp({ maxOpTimeoutMs: 150 });
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'cron.set': (a: { id: number; schedule: string; command: string }) => {
      const parsed = parseCrontab(tab);
      parsed.jobs = [...parsed.jobs.filter((j) => j.id !== a.id), a];
      tab = renderCrontab(parsed);
      applied += 1;
      return { set: true };
    },
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('the sweeper', () => {
  it('keeps a timed-out op pending and settles it on the next sweep', async () => {
    const base = `/api/v1/cronjobs/servers/${agent.server.id}/users/${owner.id}`;
    agent.delayMs = 400;
    const res = await live.t.call('POST', base, {
      token: owner.token,
      body: { sys_user: 'root', schedule: '@hourly', command: 'true' },
    });
    expect(res.statusCode).toBe(202);
    const { id, status } = res.json();
    expect(status).toBe('pending');
    // The request's own step; the connection's sweep may have started another since.
    const activity = await live.t.call(
      'GET',
      `/api/v1/activity/servers/${agent.server.id}/users/${owner.id}`,
      { token: owner.token },
    );
    const steps = activity.json().data as { status: string; error: string | null }[];
    expect(steps.find((s) => s.status === 'failed')).toMatchObject({
      error: expect.stringMatching(/asked again when the server answers/),
    });

    // The late answer lands on the server (every call it got is carried out, the connection's
    // sweep's too); the sweep asks again, and now in time.
    agent.delayMs = 0;
    await waitFor('the server to carry out every cron.set it was sent', () => {
      const sent = agent.calls.filter((c) => c.name === 'cron.set').length;
      return sent > 0 && applied === sent;
    });
    expect(parseCrontab(tab).jobs.filter((j) => j.id === id)).toHaveLength(1);
    await sweepConnected(live.t.app, 0);
    const row = await live.t.call('GET', `${base.replace('/servers', `/${id}/servers`)}`, {
      token: owner.token,
    });
    expect(row.json().status).toBe('active');
    // Applied twice, held once: the op is idempotent.
    expect(parseCrontab(tab).jobs.filter((j) => j.id === id)).toHaveLength(1);
  });
});
