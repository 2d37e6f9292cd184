import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * Automatic updates (thirdpartyupd): the switches the client changed reach the agent, apt's
 * answer is what the client sees, and a dry run that disagrees comes back as its message.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let settings = { security_update: true, software_update: true };

const path = () => `/api/v1/thirdpartyupd/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'PATCH', body?: unknown) =>
  live.t.call(method, path(), { token: owner.token, body });
const origins = () => [
  ...(settings.security_update ? ['security'] : []),
  ...(settings.software_update ? ['main', 'updates'] : []),
];

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'autoupdates.get': () => ({ ...settings, origins: origins() }),
    'autoupdates.set': (a: Partial<typeof settings>) => {
      if (a.software_update === false && a.security_update === false && settings.software_update)
        throw new OpError(
          'check_failed',
          'unattended-upgrade would allow origin=Example, not none',
        );
      settings = { ...settings, ...a };
      return { ...settings, origins: origins() };
    },
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('automatic updates', () => {
  it("reads the server's settings and the origins apt allows", async () => {
    const res = await call('GET');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      security_update: true,
      software_update: true,
      origins: ['security', 'main', 'updates'],
    });
  });

  it('sends only the switch changed, and logs it', async () => {
    const res = await call('PATCH', { software_update: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      security_update: true,
      software_update: false,
      origins: ['security'],
    });
    expect(agent.calls.at(-1)).toEqual({
      name: 'autoupdates.set',
      args: { software_update: false },
    });
    const log = await live.t.call(
      'GET',
      `/api/v1/activity/servers/${agent.server.id}/users/${owner.id}`,
      { token: owner.token },
    );
    expect(log.json().data[0]).toMatchObject({
      message: 'Automatic updates: software updates off',
      status: 'done',
    });
  });

  it('answers a dry run that disagrees with its message; nothing changes', async () => {
    settings.software_update = true;
    const res = await call('PATCH', { security_update: false, software_update: false });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/would allow origin=Example/);
    expect((await call('GET')).json()).toMatchObject({ security_update: true });
  });

  it('refuses what is not a switch before asking the server', async () => {
    const before = agent.calls.length;
    const res = await call('PATCH', { security_update: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('security_update');
    expect(agent.calls.length).toBe(before);
  });
});
