import type { PinoLoggerOptions } from 'fastify/types/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverStoppedTasks } from '../../features/installers/serverRecover';
import { loggerOptions } from '../../server/app';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';
import { addRelease, appStepOps } from './installerAgent';
import { waitFor } from '../waitFor';

/**
 * An install whose panel stopped mid-way (DESIGN: a task is resumed or failed after a restart,
 * never stuck): the next sweep fails it and removes the app and database it had made, and the
 * old runner, should it still be alive, leaves the task alone. A panel that stops cannot be
 * killed inside one process, so the test stops the runner's heartbeat by dating it back.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let releaseFetch: (() => void) | null = null;
const lines: string[] = [];

beforeAll(async () => {
  // The log says when the old runner gives up a task another panel settled.
  const options = loggerOptions('info') as PinoLoggerOptions;
  live = await startLiveApp({
    logger: { ...options, stream: { write: (line: string) => void lines.push(line) } },
  });
  owner = await live.t.user();
  agent = await startFakeAgent(
    live,
    owner,
    {
      ...appStepOps(),
      // The download hangs until the test lets it fail: the panel "stops" while it runs.
      'release.fetch': () =>
        new Promise((_, reject) => {
          releaseFetch = () => reject(new Error('the download was cut'));
        }),
    },
    'recovery-1',
  );
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addRelease(live.t.app.db, 'nextcloud');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

const taskOf = async (id: number) =>
  (
    await live.t.call('GET', `/api/v1/clone-events/users/${owner.id}?id=${id}`, {
      token: owner.token,
    })
  ).json().data[0] as { status: string; events: { event: string; code: number }[] };

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 250 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
  expect(await check()).toBe(true);
}

describe('an install whose panel stopped', () => {
  it('is failed by the next sweep, and the app and database it made are removed', async () => {
    const res = await live.t.call(
      'POST',
      `/api/v1/nextcloud/servers/${agent.server.id}/users/${owner.id}`,
      {
        token: owner.token,
        body: {
          name: 'cloud',
          domains: ['cloud.example.com'],
          sys_user: 'alice',
          admin_user: 'owner1',
          admin_email: 'o@example.com',
        },
      },
    );
    expect(res.statusCode, res.body).toBe(202);
    const { task_id: taskId, webapp_id: appId } = res.json() as {
      task_id: number;
      webapp_id: number;
    };
    await until(async () => releaseFetch !== null);
    const { db } = live.t.app;
    expect(await db.selectFrom('databases').select('name').execute()).toEqual([
      { name: 'nc_cloud' },
    ]);

    // A runner that beats is left alone.
    expect(await recoverStoppedTasks(live.t.app)).toBe(0);
    expect((await taskOf(taskId)).status).toBe('running');

    // Its heartbeat stops (the panel died): the next sweep settles the task.
    await db
      .updateTable('app_tasks')
      .set({ beat_at: new Date(Date.now() - 120_000).toISOString() })
      .where('task_id', '=', taskId)
      .execute();
    expect(await recoverStoppedTasks(live.t.app)).toBe(1);
    const task = await taskOf(taskId);
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event).slice(-2)).toEqual([
      'The panel stopped while this ran (it restarted)',
      'Everything the install made is removed again',
    ]);
    expect(await db.selectFrom('webapps').select('id').where('id', '=', appId).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('databases').select('name').execute()).toEqual([]);
    expect(await db.selectFrom('dbusers').select('name').execute()).toEqual([]);
    const removed = agent.calls.map((c) => c.name).filter((n) => /remove|drop/.test(n));
    expect(removed).toEqual(
      expect.arrayContaining(['webapp.remove', 'mariadb.db.drop', 'mariadb.user.drop']),
    );

    // A second sweep finds nothing; the old runner's late failure adds nothing to the task.
    expect(await recoverStoppedTasks(live.t.app)).toBe(0);
    const events = task.events.length;
    releaseFetch!();
    await waitFor('the old runner to give the task up', () =>
      lines.some((line) => {
        const entry = JSON.parse(line) as { msg?: string; taskId?: number };
        return (
          entry.taskId === taskId &&
          entry.msg === 'another panel settled this task: its runner stops'
        );
      }),
    );
    const after = await taskOf(taskId);
    expect(after.status).toBe('failed');
    expect(after.events).toHaveLength(events);
  });
});
