import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from '../../resources/agent/protocol';
import type { TestApp, TestUser } from './helpers';
import { type LiveApp, connected, startLiveApp } from './liveApp';

/**
 * The agent's structured errors (`{code, message, field}`) as the user gets them: a field error
 * is a 400 with the message at that field, a clash 409, a missing thing 404, an agent too old
 * 502, anything else 422 with the agent's message; the activity line keeps the message. A real
 * socket.io client plays the agent.
 */
let live: LiveApp;
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  live = await startLiveApp({ maxOpTimeoutMs: 800 });
  ({ t } = live);
  owner = await t.user();
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

async function onlineServer(reply: unknown) {
  const server = await live.newServer(owner, 'ops-errors');
  const agent = live.agentSocket(await live.agentKey(server.installKey));
  agent.on(EVENTS.op, (_request: unknown, ack: (reply: unknown) => void) => ack(reply));
  await connected(agent);
  for (let i = 0; i < 60; i++) {
    const res = await t.call('GET', `/api/v1/servers/${server.id}/users/${owner.id}`, {
      token: owner.token,
    });
    if ((res.json() as { connected: boolean }).connected) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}

const setHostname = (sid: number) =>
  t.call('PUT', `/api/v1/hostname/servers/${sid}/users/${owner.id}`, {
    token: owner.token,
    body: { hostname: 'web-9' },
  });

async function lastActivity(sid: number) {
  const res = await t.call('GET', `/api/v1/activity/servers/${sid}/users/${owner.id}`, {
    token: owner.token,
  });
  return (res.json() as { data: { status: string; error: string | null }[] }).data[0];
}

describe("the agent's structured errors", () => {
  it('turns a field error into a 400 with the message at that field', async () => {
    const server = await onlineServer({
      ok: false,
      error: { code: 'invalid', message: 'That host name is taken', field: 'hostname' },
    });
    const res = await setHostname(server.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'That host name is taken',
      errors: { hostname: 'That host name is taken' },
    });
    expect(await lastActivity(server.id)).toMatchObject({
      status: 'failed',
      error: 'That host name is taken',
    });
  });

  it('shows the SSH port in use at the port field', async () => {
    const server = await onlineServer({
      ok: false,
      error: {
        code: 'invalid',
        message: 'Port 8022 is in use on the server; choose another',
        field: 'port',
      },
    });
    const res = await t.call('PATCH', `/api/v1/sshconfig/servers/${server.id}/users/${owner.id}`, {
      token: owner.token,
      body: { port: 8022 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: { port: 'Port 8022 is in use on the server; choose another' },
    });
  });

  it.each([
    ['conflict', 409],
    ['not_found', 404],
    ['unsupported', 502],
    ['check_failed', 422],
    ['reload_failed', 422],
    ['refused', 422],
    ['failed', 422],
    ['a-code-from-a-newer-agent', 422],
  ])('maps %s to %i with the agent’s message', async (code, status) => {
    const server = await onlineServer({ ok: false, error: { code, message: `because ${code}` } });
    const res = await setHostname(server.id);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ message: `because ${code}` });
    expect(res.json().errors).toBeUndefined();
  });

  it('still reads the bare message of an older agent, and refuses a malformed error', async () => {
    const old = await onlineServer({ ok: false, error: 'hostname: you must be root' });
    const res = await setHostname(old.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('hostname: you must be root');
    live.disconnectAll();

    const odd = await onlineServer({ ok: false, error: { code: 'failed' } });
    const bad = await setHostname(odd.id);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('The server answered with something unexpected');
  });
});

describe('op ids and progress', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("sends each op with an id and hands the agent's progress for it to the caller", async () => {
    const server = await live.newServer(owner, 'ops-progress');
    const other = await live.newServer(owner, 'ops-other');
    const [key, otherKey] = [
      await live.agentKey(server.installKey),
      await live.agentKey(other.installKey),
    ];
    // Listening for the connection from the start: it may come before any await.
    const agent = live.agentSocket(key);
    const intruder = live.agentSocket(otherKey);
    const both = Promise.all([connected(agent), connected(intruder)]);
    const ids: string[] = [];
    agent.on(EVENTS.op, (request: { id: string; name: string }, ack: (reply: unknown) => void) => {
      ids.push(request.id);
      // Another server's agent cannot feed this op; malformed events are dropped.
      intruder.emit(EVENTS.progress, { opId: request.id, event: 'forged', code: 9 });
      agent.emit(EVENTS.progress, { opId: request.id, event: 'Downloading', code: 2 });
      agent.emit(EVENTS.progress, { opId: request.id, code: 'lots' });
      agent.emit(EVENTS.progress, { opId: request.id, event: 'Unpacking', code: 6 });
      setTimeout(() => ack({ ok: true, data: { uptime: 12 } }), 100);
    });
    await both;
    for (let i = 0; i < 60 && !(await t.app.agents.isOnline(server.id)); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const seen: unknown[] = [];
    const result = await t.app.agents.call(
      server.id,
      'system.uptime',
      {},
      { onProgress: (p) => seen.push(p) },
    );
    expect(result).toEqual({ uptime: 12 });
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(UUID);
    expect(seen).toEqual([
      { opId: ids[0], event: 'Downloading', code: 2 },
      { opId: ids[0], event: 'Unpacking', code: 6 },
    ]);

    // Once the op is answered, late events for it go nowhere; a caller may name the id.
    agent.emit(EVENTS.progress, { opId: ids[0], event: 'late', code: 10 });
    const opId = '6f1c2f0e-8a53-4c6b-9a57-3c1d2e4f5a6b';
    await t.app.agents.call(
      server.id,
      'system.uptime',
      {},
      { opId, onProgress: (p) => seen.push(p) },
    );
    expect(ids[1]).toBe(opId);
    expect(seen.map((p) => (p as { event: string }).event)).toEqual([
      'Downloading',
      'Unpacking',
      'Downloading',
      'Unpacking',
    ]);
  });
});
