import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from '../../resources/agent/protocol';
import type { TestApp, TestUser } from './helpers';
import { type LiveApp, connected, startLiveApp } from './liveApp';

/**
 * Each activity line says who did it (issue 22): the user, an admin acting as the user, an API
 * key by its label, or the panel itself. A real socket.io client plays the agent.
 */
let live: LiveApp;
let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let acting: string;
let keyHeaders: Record<string, string>;

beforeAll(async () => {
  live = await startLiveApp();
  ({ t } = live);
  [owner, admin] = await Promise.all([t.user(), t.user({ admin: true })]);
  acting = await t.actAs(admin.token, owner.id);
  const minted = await t.call('POST', `/api/v1/auth/gen/users/${owner.id}`, {
    token: owner.token,
    body: { password: owner.password, label: 'deploy-bot' },
  });
  expect(minted.statusCode, minted.body).toBe(200);
  const { api_key, api_secret } = minted.json() as { api_key: string; api_secret: string };
  keyHeaders = { 'x-api-key': api_key, 'x-api-secret': api_secret };
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

type Line = { message: string; who: string | null };

async function onlineServer() {
  const server = await live.newServer(owner, 'who-1');
  const agent = live.agentSocket(await live.agentKey(server.installKey));
  // Answers system.hostname, the one op these lines come from.
  agent.on(EVENTS.op, (request: { args: { hostname: string } }, ack: (reply: unknown) => void) =>
    ack({ ok: true, data: { hostname: request.args.hostname } }),
  );
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

describe('the "who" of activity lines', () => {
  it('server activity: the user, an admin acting as the user, an API key', async () => {
    const server = await onlineServer();
    const path = `/api/v1/hostname/servers/${server.id}/users/${owner.id}`;
    const callers = [{ token: owner.token }, { token: acting }, { headers: keyHeaders }];
    for (const [i, caller] of callers.entries()) {
      const res = await t.call('PUT', path, { ...caller, body: { hostname: `web-${i}` } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await t.call('GET', `/api/v1/activity/servers/${server.id}/users/${owner.id}`, {
      token: owner.token,
    });
    const lines = (res.json() as { data: Line[] }).data.filter((l) => /web-\d/.test(l.message));
    expect(lines.map((l) => l.who).sort()).toEqual(
      [owner.email, `admin ${admin.email} as ${owner.email}`, 'API key "deploy-bot"'].sort(),
    );
  });

  it('account activity: the user, an admin acting as the user, an API key', async () => {
    const path = `/api/v1/images/users/${owner.id}`;
    const body = { data: 'data:image/png;base64,AAAA' };
    for (const caller of [{ token: owner.token }, { token: acting }, { headers: keyHeaders }]) {
      const res = await t.call('PUT', path, { ...caller, body });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const res = await t.call('GET', `/api/v1/accntactivity/users/${owner.id}`, {
      token: owner.token,
    });
    const lines = (res.json() as { data: Line[] }).data.filter(
      (l) => l.message === 'Profile photo changed',
    );
    expect(lines.map((l) => l.who).sort()).toEqual(
      [owner.email, `admin ${admin.email} as ${owner.email}`, 'API key "deploy-bot"'].sort(),
    );
  });
});
