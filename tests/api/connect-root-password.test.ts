import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
// Owners on Pro: no plan limit in the way (plan-limits.test.ts tests the limits).
import { PLAN_IDS } from '../../features/plans/api';

/**
 * Connecting a server changes nothing the owner did not ask for: root's password is set on the
 * first opening only when the Connect form asked for it (`root_password`); otherwise the
 * agent's rootPassword op is never called and the panel refuses a root row.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
const rootHashes: string[] = [];

const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });
const sysusers = () => `/api/v1/sysusers/servers/${agent.server.id}/users/${owner.id}`;
const rootCalls = () => agent.calls.filter((c) => c.name === 'sysusers.rootPassword');

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user({ plan: PLAN_IDS.pro });
  agent = await startFakeAgent(live, owner, {
    'sysusers.rootPassword': (a: { password_hash: string }) => {
      rootHashes.push(a.password_hash);
      return { changed: true };
    },
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe("root's password at connect", () => {
  it('is off unless asked for, and the server record says which', async () => {
    const plain = await call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
      name: 'plain',
    });
    expect(plain.json().root_password).toBe(false);
    const asked = await call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
      name: 'asked',
      root_password: true,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().root_password).toBe(true);
    const read = await call('GET', `/api/v1/servers/${asked.json().id}/users/${owner.id}`);
    expect(read.json().root_password).toBe(true);
  });

  it('leaves root alone on a server connected without asking: no row, no op', async () => {
    const res = await call('POST', sysusers(), {
      user_name: 'root',
      password: 'a long root password',
      quota_hard: 0,
      quota_soft: 0,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.user_name).toMatch(/only when asked for/);
    expect(rootCalls()).toEqual([]);
    const rows = await live.t.app.db
      .selectFrom('sysusers')
      .select('id')
      .where('server_id', '=', agent.server.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('sets it once on the first opening when the owner asked for it', async () => {
    await live.t.app.db
      .updateTable('servers')
      .set({ root_password: 1 })
      .where('id', '=', agent.server.id)
      .execute();
    const body = {
      user_name: 'root',
      password: 'a long root password',
      quota_hard: 0,
      quota_soft: 0,
    };
    const res = await call('POST', sysusers(), body);
    expect(res.statusCode, res.body).toBe(201);
    expect(rootCalls()).toHaveLength(1);
    expect(rootHashes[0]).toMatch(/^\$6\$/);
    // Once only: the first opening.
    expect((await call('POST', sysusers(), body)).statusCode).toBe(400);
    expect(rootCalls()).toHaveLength(1);
  });
});
