import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  BROWSER_NAMESPACE,
  EVENTS,
  type Report,
} from '../../resources/agent/protocol';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * A shared server with its agent online: the member runs ops through the agent and follows its
 * live reports; once removed, neither the API nor the live feed lets them in.
 */
let t: TestApp;
let owner: TestUser;
let member: TestUser;
let base: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await buildTestApp({}, { maxOpTimeoutMs: 800 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  t.app.config.publicUrl = base;
  [owner, member] = await Promise.all([t.user(), t.user()]);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

function socket(namespace: string, auth: Record<string, string>): Socket {
  const s = io(`${base}${namespace}`, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { origin: base },
  });
  sockets.push(s);
  return s;
}

const connected = (s: Socket) =>
  new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });

const report = (): Report => ({
  agent_version: '0.1.0',
  kernel_version: '6.1.0-test',
  os: 'Debian GNU/Linux 12 (bookworm)',
  hostname: 'shared.example.com',
  timezone: 'Europe/Berlin',
  uptime: 1234,
  load: [0.5, 0.4, 0.3],
  cpu: { cores: 2, usage: 12.5 },
  memory: { total: 4e9, used: 1e9, swap_total: 0, swap_used: 0 },
  disk: { total: 50e9, used: 10e9 },
  network: { rx_bytes: 1000, tx_bytes: 2000, rx_rate: 10, tx_rate: 20 },
  at: Date.now(),
});

/** A server of the owner's whose agent (a socket.io client speaking the protocol) is online. */
async function onlineServer(ops: string[]) {
  const created = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
    token: owner.token,
    body: { name: 'live-shared' },
  });
  const server = created.json() as { id: number; uuid: string };
  const script = await t.call(
    'POST',
    `/api/v1/servers/users/${owner.id}?action=script&sid=${server.id}`,
    { token: owner.token },
  );
  const installKey = /\/install\/([\w-]+)/.exec(
    (script.json() as { command: string }).command,
  )![1]!;
  const res = await fetch(`${base}/install/${installKey}/credentials`, { method: 'POST' });
  const { key } = (await res.json()) as { key: string };
  const agent = socket(AGENT_NAMESPACE, { key, agent_version: 'test' });
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

    const browser = socket(BROWSER_NAMESPACE, { token: member.token });
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
    const owners = socket(BROWSER_NAMESPACE, { token: owner.token });
    await connected(owners);
    await owners.emitWithAck(EVENTS.subscribe, { uuid: server.uuid });
    const ownerSaw = new Promise((resolve) => owners.once(EVENTS.live, resolve));
    agent.emit(EVENTS.report, report());
    await ownerSaw;
    await new Promise((r) => setTimeout(r, 100));
    expect(pushes).toEqual([]);
    const after = await t.call('GET', `/api/v1/ping/servers/${server.id}/users/${member.id}`, {
      token: member.token,
    });
    expect(after.statusCode).toBe(404);
    // The refused request never reached the agent.
    expect(ops).toEqual(['system.uptime']);
    expect(await browser.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toEqual({
      ok: false,
      error: 'Not found',
    });
  });
});
