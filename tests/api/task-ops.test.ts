import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpContext } from '../../agent/ops/types';
import { OpError } from '../../agent/lib/opError';
import { reconcileTasks, runTaskOp } from '../../server/tasks/taskOps';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * Long ops as tasks: the agent's progress becomes the task's ordered events; a reply that
 * comes after the connection dropped (or after the panel stopped waiting, as a restarted panel
 * would) still settles the task; a task whose op the agent no longer runs is failed, saying so.
 * The fake agent runs the agent's own op server (agent/opServer.ts) over in-memory ops.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
/** Lets the fake cleanup finish. */
let release: () => void = () => undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cleanup(_args: unknown, ctx: OpContext) {
  ctx.progress('Package caches', 3);
  await new Promise<void>((resolve) => (release = resolve));
  ctx.progress('Old logs', 6);
  return { packages: 1, logs: 2, journal: 3 };
}

async function taskOf(id: number) {
  const task = await live.t.app.services.tasks.find(id);
  const events = await live.t.app.services.tasks.events(id);
  return { status: task?.status, events };
}

async function until(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

async function start() {
  const server = (await live.t.app.services.servers.findById(agent.server.id))!;
  return runTaskOp(
    live.t.app,
    { userId: owner.id, server, kind: 'cleanup', name: 'Clean up' },
    'system.cleanup',
    {},
  );
}

beforeAll(async () => {
  live = await startLiveApp({ maxOpTimeoutMs: 2000 });
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, { 'system.cleanup': cleanup });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('long ops as tasks', () => {
  it('records the steps in order and completes', async () => {
    const id = await start();
    await until(async () => (await taskOf(id)).events.length === 1);
    release();
    await until(async () => (await taskOf(id)).status === 'completed');
    expect((await taskOf(id)).events).toEqual([
      { event: 'Package caches', code: 3 },
      { event: 'Old logs', code: 6 },
      { event: 'Done', code: 10 },
    ]);
  });

  it('settles a task whose reply comes on the next connection', async () => {
    const id = await start();
    await until(async () => (await taskOf(id)).events.length === 1);
    await agent.disconnect();
    release(); // the op ends while the agent is offline
    await sleep(50);
    expect((await taskOf(id)).status).toBe('running');
    await agent.reconnect();
    await until(async () => (await taskOf(id)).status === 'completed');
    expect((await taskOf(id)).events.map((e) => e.event)).toEqual([
      'Package caches',
      'Old logs',
      'Done',
    ]);
  });

  it('is not failed when the panel stops waiting, and completes from the late reply', async () => {
    const id = await start();
    // Past the 2 s cap the call gives up, as a restarted panel has no caller at all.
    await until(async () => (await taskOf(id)).events.length === 2, 4000);
    expect(await taskOf(id)).toMatchObject({
      status: 'running',
      events: [
        { event: 'Package caches', code: 3 },
        { event: 'Waiting for the server to report the end', code: 3 },
      ],
    });
    await agent.disconnect();
    release();
    await agent.reconnect();
    await until(async () => (await taskOf(id)).status === 'completed');
    expect((await taskOf(id)).events.at(-1)).toEqual({ event: 'Done', code: 10 });
  });

  it("fails a task with the op's own error, at the step it reached", async () => {
    agent.ops['system.cleanup'] = async (_a: unknown, ctx: OpContext) => {
      ctx.progress('Package caches', 3);
      throw new OpError('failed', 'apt-get clean failed: disk full');
    };
    const id = await start();
    await until(async () => (await taskOf(id)).status === 'failed');
    expect((await taskOf(id)).events).toEqual([
      { event: 'Package caches', code: 3 },
      { event: 'apt-get clean failed: disk full', code: 3 },
    ]);
  });

  it('fails a running task whose op its agent no longer runs', async () => {
    const taskId = await live.t.app.services.tasks.create({
      userId: owner.id,
      serverId: agent.server.id,
      kind: 'install',
      name: 'Lost in a reboot',
      opId: '00000000-0000-4000-8000-000000000001',
    });
    agent.ops['agent.running'] = async () => ({ ops: [] });
    await reconcileTasks(live.t.app, agent.server.id, 10);
    expect(await taskOf(taskId)).toMatchObject({
      status: 'failed',
      events: [{ event: expect.stringMatching(/stopped this work/) }],
    });
  });
});
