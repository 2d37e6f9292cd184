import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, type Report } from '../../resources/agent/protocol';
import type { TestUser } from './helpers';
import { type LiveApp, connected, sampleReport as report, startLiveApp } from './liveApp';

/**
 * Issue 22: a supervisor job's state is pushed to the browsers that follow its server as the
 * agent reports it (the report's `supervisor` list), so the jobs page shows a job start, stop or
 * fail without a reload or a poll; nobody who may not see the server hears of it.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  live = await startLiveApp();
  [owner, stranger] = await Promise.all([live.t.user(), live.t.user()]);
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

const running = {
  name: 'web',
  process: 'web_00',
  state: 'RUNNING',
  pid: 12,
  uptime: 65,
  description: '',
};

describe('supervisor states in the live feed', () => {
  it("pushes a job's state change to the owner's browsers, to nobody else", async () => {
    const server = await live.newServer(owner);
    const agent = live.agentSocket(await live.agentKey(server.installKey));
    await connected(agent);
    const mine = live.browserSocket(owner.token);
    const theirs = live.browserSocket(stranger.token);
    await Promise.all([connected(mine), connected(theirs)]);
    expect(await mine.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toMatchObject({
      ok: true,
    });
    await theirs.emitWithAck(EVENTS.subscribe, { uuid: server.uuid });
    let strangerSaw = 0;
    theirs.on(EVENTS.live, () => (strangerSaw += 1));

    const states: (Report['supervisor'] | undefined)[] = [];
    mine.on(EVENTS.live, (message: Report) => states.push(message.supervisor));
    agent.emit(EVENTS.report, report({ at: Date.now(), supervisor: [running] }));
    const fatal = { ...running, state: 'FATAL', pid: null, uptime: null, description: 'Exited' };
    agent.emit(EVENTS.report, report({ at: Date.now() + 1, supervisor: [fatal] }));
    await expect.poll(() => states.length, { timeout: 5000 }).toBe(2);
    expect(states).toEqual([[running], [fatal]]);
    expect(strangerSaw).toBe(0);
  });

  it('refuses a report whose states break the schema', async () => {
    const server = await live.newServer(owner, 'web-2');
    const agent = live.agentSocket(await live.agentKey(server.installKey));
    await connected(agent);
    const mine = live.browserSocket(owner.token);
    await connected(mine);
    await mine.emitWithAck(EVENTS.subscribe, { uuid: server.uuid });
    const got: Report[] = [];
    mine.on(EVENTS.live, (message: Report) => got.push(message));
    agent.emit(
      EVENTS.report,
      report({ at: Date.now(), supervisor: [{ ...running, state: 'X'.repeat(50) }] }),
    );
    agent.emit(EVENTS.report, report({ at: Date.now() + 1, hostname: 'after' }));
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(1);
    expect(got[0]).toMatchObject({ hostname: 'after' });
    expect(got[0]!.supervisor).toBeUndefined();
  });
});
