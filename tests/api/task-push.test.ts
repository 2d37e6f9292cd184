import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OpContext } from '../../agent/ops/types';
import { OpError } from '../../agent/lib/opError';
import { EVENTS } from '../../resources/agent/protocol';
import { runTaskOp } from '../../server/tasks/taskOps';
import { parseTaskPush } from '../../src/live/taskPushLogic';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, openSocket, startLiveApp } from './liveApp';

/**
 * Task progress pushed to the browser (issue 11): every step and the end of a task reach its
 * owner's sockets at once, in order, after they are written (a refetch of clone-events then
 * shows them); nobody else's socket hears of it, not even an admin's.
 */
let live: LiveApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let agent: FakeAgent;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function steps(_args: unknown, ctx: OpContext) {
  ctx.progress('Package caches', 3);
  await sleep(20);
  ctx.progress('Old logs', 6);
  return { packages: 1, logs: 2, journal: 3 };
}

/**
 * Every `task` push a socket gets; with a token, clone-events is read again on each push, as the
 * browser does, and `held` says whether that read already showed the push.
 */
function record(socket: Socket, token?: string, uid?: number) {
  const got: unknown[] = [];
  const held: boolean[] = [];
  socket.on(EVENTS.task, (payload: unknown) => {
    got.push(payload);
    if (!token) return;
    const push = payload as { id: number; status: string; event: string | null };
    void live.t
      .call('GET', `/api/v1/clone-events/users/${uid}?id=${push.id}`, { token })
      .then((res) => {
        const [task] = (res.json() as { data: { status: string; events: { event: string }[] }[] })
          .data;
        held.push(
          push.event === null
            ? task?.status === push.status
            : Boolean(task?.events.some((e) => e.event === push.event)),
        );
      });
  });
  return { got, held };
}

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

/**
 * Waits until `socket` (the user's) has heard all the panel pushed to it so far: a task of the
 * user's own ends now, and the panel pushes to a socket in order, so once that end arrives
 * nothing pushed before it can still be on its way. Returns that task's id.
 */
async function allHeard(user: TestUser, socket: ReturnType<typeof record>) {
  const { tasks } = live.t.app.services;
  const marker = await tasks.create({
    userId: user.id,
    serverId: agent.server.id,
    kind: 'install',
    name: 'marker',
    opId: randomUUID(),
  });
  await tasks.finish(marker, 'completed');
  await until(() => socket.got.some((push) => (push as { id: number }).id === marker));
  return marker;
}

/** The push of a task's end. */
const ended = (id: number) => ({
  id,
  kind: 'install',
  status: 'completed',
  event: null,
  code: null,
});

async function start(kind = 'install') {
  const server = (await live.t.app.services.servers.findById(agent.server.id))!;
  return runTaskOp(
    live.t.app,
    { userId: owner.id, server, kind, name: 'WordPress' },
    'system.cleanup',
    {},
  );
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  other = await live.t.user();
  admin = await live.t.user({ admin: true });
  agent = await startFakeAgent(live, owner, { 'system.cleanup': steps });
});
// The browsers' sockets only: the fake agent's stays up for the next test.
const browsers: Socket[] = [];
afterEach(() => browsers.splice(0).forEach((socket) => socket.disconnect()));
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

async function browser(token: string) {
  const socket = await openSocket(live, token);
  browsers.push(socket);
  return socket;
}

describe('task progress pushed over socket.io', () => {
  it("reaches the owner's sockets in order, after each write, and no one else's", async () => {
    const mine = record(await browser(owner.token), owner.token, owner.id);
    const acting = record(await browser(await live.t.actAs(admin.token, owner.id)));
    const theirs = record(await browser(other.token));
    const admins = record(await browser(admin.token));

    const id = await start();
    await until(() => mine.got.length === 4 && mine.held.length === 4);
    expect(mine.got).toEqual([
      { id, kind: 'install', status: 'running', event: 'Package caches', code: 3 },
      { id, kind: 'install', status: 'running', event: 'Old logs', code: 6 },
      { id, kind: 'install', status: 'running', event: 'Done', code: 10 },
      { id, kind: 'install', status: 'completed', event: null, code: null },
    ]);
    // What the browser refetches on a push already holds that push.
    expect(mine.held).toEqual([true, true, true, true]);
    // The browser's own parser takes what the panel sends.
    expect(mine.got.map(parseTaskPush)).toEqual(mine.got);
    // An admin acting as the owner sees what the owner sees.
    await until(() => acting.got.length === 4);
    expect(acting.got).toEqual(mine.got);

    // Nothing of the owner's task reached anyone else: their own tasks' ends, pushed after it,
    // are all they heard.
    expect(theirs.got).toEqual([ended(await allHeard(other, theirs))]);
    expect(admins.got).toEqual([ended(await allHeard(admin, admins))]);
  });

  it('pushes the failure of a task, with its last step', async () => {
    const mine = record(await browser(owner.token));
    const theirs = record(await browser(other.token));
    agent.ops['system.cleanup'] = async (_a: unknown, ctx: OpContext) => {
      ctx.progress('Package caches', 3);
      throw new OpError('failed', 'apt-get clean failed: disk full');
    };
    const id = await start('clone');
    await until(() => mine.got.length === 3);
    expect(mine.got).toEqual([
      { id, kind: 'clone', status: 'running', event: 'Package caches', code: 3 },
      { id, kind: 'clone', status: 'running', event: 'apt-get clean failed: disk full', code: 3 },
      { id, kind: 'clone', status: 'failed', event: null, code: null },
    ]);
    expect(theirs.got).toEqual([ended(await allHeard(other, theirs))]);
  });
});
