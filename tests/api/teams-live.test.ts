import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from '../../resources/agent/protocol';
import type { TestApp, TestUser } from './helpers';
import { type LiveApp, connected, sampleReport, startLiveApp } from './liveApp';

/**
 * A shared server with its agent online: the member runs ops through the agent and follows its
 * live reports; once removed, neither the API nor the live feed lets them in.
 */
let live: LiveApp;
let t: TestApp;
let owner: TestUser;
let member: TestUser;

beforeAll(async () => {
  live = await startLiveApp({ maxOpTimeoutMs: 800 });
  t = live.t;
  [owner, member] = await Promise.all([t.user(), t.user()]);
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

const report = () => sampleReport({ hostname: 'shared.example.com' });

/** A server of the owner's whose agent (a socket.io client speaking the protocol) is online. */
async function onlineServer(ops: string[]) {
  const { installKey, ...server } = await live.newServer(owner, 'live-shared');
  const agent = live.agentSocket(await live.agentKey(installKey));
  agent.on(EVENTS.op, (request: { name: string }, ack: (reply: unknown) => void) => {
    ops.push(request.name);
    ack({ ok: true, data: { uptime: 99.5 } });
  });
  await connected(agent);
  for (let i = 0; i < 60 && !(await t.app.agents.isOnline(server.id)); i++)
    await new Promise((r) => setTimeout(r, 50));
  return { ...server, agent };
}

describe('a shared server with its agent online', () => {
  it('the member pings it and subscribes to it until removed', async () => {
    const ops: string[] = [];
    const { agent, ...server } = await onlineServer(ops);
    const team = (
      await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
        token: owner.token,
        body: { name: 'Live' },
      })
    ).json() as { id: number };
    const teamPath = `/api/v1/teams/${team.id}/users/${owner.id}`;
    await t.call('PATCH', teamPath, {
      token: owner.token,
      body: { invite: [member.email], share: [server.id] },
    });
    const invite = /invite=([0-9a-f-]{36})/.exec((await t.lastMail(member.email))!.text_body)![1];
    const joined = await t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
      token: member.token,
    });
    expect(joined.statusCode).toBe(200);

    const ping = await t.call('GET', `/api/v1/ping/servers/${server.id}/users/${member.id}`, {
      token: member.token,
    });
    expect(ping.statusCode, ping.body).toBe(200);
    expect(ping.json()).toMatchObject({ uptime: 99.5 });
    expect(ops).toEqual(['system.uptime']);

    const browser = live.browserSocket(member.token);
    await connected(browser);
    expect(await browser.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toMatchObject({
      ok: true,
      connected: true,
    });

    const pushes: unknown[] = [];
    browser.on(EVENTS.live, (message: unknown) => pushes.push(message));
    await t.call('PATCH', teamPath, { token: owner.token, body: { remove: [member.id] } });
    // The removal takes the member's browser out of the live feed: a report the agent sends now
    // reaches the owner's browser and not the member's.
    const owners = live.browserSocket(owner.token);
    await connected(owners);
    await owners.emitWithAck(EVENTS.subscribe, { uuid: server.uuid });
    const ownerSaw = new Promise((resolve) => owners.once(EVENTS.live, resolve));
    agent.emit(EVENTS.report, report());
    await ownerSaw;
    // The report was pushed to the server's room by then; a round trip over the member's socket
    // comes back after anything pushed to that socket before it: nothing was.
    expect(await browser.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toEqual({
      ok: false,
      error: 'Not found',
    });
    expect(pushes).toEqual([]);
    const after = await t.call('GET', `/api/v1/ping/servers/${server.id}/users/${member.id}`, {
      token: member.token,
    });
    expect(after.statusCode).toBe(404);
    // The refused request never reached the agent.
    expect(ops).toEqual(['system.uptime']);
  });
});
