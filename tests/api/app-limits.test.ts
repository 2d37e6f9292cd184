import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../features/webapps/resource';
import type { AppLimits } from '../../features/webapps/limits';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * An app's limits through the API, with a fake agent that records what the server was told
 * (`limits.apply`, per system user). tests/system/app-limits.test.ts bounds a real spawner on a
 * sandbox server with them.
 */
let live: LiveApp;
let owner: TestUser;
let other: TestUser;
let agent: FakeAgent;
/** The limits each system user of the fake server holds, as last applied. */
const held = new Map<string, AppLimits>();

const base = (p = 'webstacks') => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const limitsOf = (id: number, uid = owner.id) =>
  `/api/v1/applimits/webstacks/${id}/servers/${agent.server.id}/users/${uid}`;
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  token = owner.token,
) => live.t.call(method, url, { token, body });
const makeApp = async (name: string, sysUser = 'alice') => {
  const res = await call('POST', base(), {
    name,
    domains: [`${name}.example.com`],
    sys_user: sysUser,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};

beforeAll(async () => {
  live = await startLiveApp();
  [owner, other] = await Promise.all([live.t.user(), live.t.user()]);
  agent = await startFakeAgent(live, owner, {
    'webapp.apply': (spec: AppSpec) => ({ path: `/home/${spec.user}/apps/${spec.name}` }),
    'webapp.list': () => [],
    'limits.apply': ({ user, limits }: { user: string; limits: AppLimits }) => {
      held.set(user, limits);
      return { applied: true };
    },
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, agent.server.id, 'bob');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe("an app's limits", () => {
  it('shows the defaults for a new app', async () => {
    const id = await makeApp('fresh');
    const res = await call('GET', limitsOf(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      processes: 256,
      memory_mb: 1024,
      defaults: true,
      user_limits: { processes: 256, memory_mb: 1024 },
      sys_user: 'alice',
    });
  });

  it("applies a change to the app's user at once: the largest setting of the user's apps", async () => {
    const shop = await makeApp('shop', 'bob');
    const blog = await makeApp('blog', 'bob');
    const set = await call('PUT', limitsOf(shop), { processes: 64, memory_mb: 2048 });
    expect(set.statusCode, set.body).toBe(200);
    // blog has no setting of its own: shop's is bob's.
    expect(set.json()).toMatchObject({
      processes: 64,
      memory_mb: 2048,
      defaults: false,
      user_limits: { processes: 64, memory_mb: 2048 },
    });
    expect(held.get('bob')).toEqual({ processes: 64, memory_mb: 2048 });
    expect((await call('GET', limitsOf(blog))).json()).toMatchObject({
      defaults: true,
      user_limits: { processes: 64, memory_mb: 2048 },
    });
    // A new app of bob's on the defaults changes nothing.
    const news = await makeApp('news', 'bob');
    expect((await call('GET', limitsOf(news))).json()).toMatchObject({
      user_limits: { processes: 64, memory_mb: 2048 },
    });
    await call('PUT', limitsOf(blog), { processes: 512, memory_mb: 128 });
    expect(held.get('bob')).toEqual({ processes: 512, memory_mb: 2048 });
    const reset = await call('DELETE', limitsOf(shop));
    expect(reset.json()).toMatchObject({ processes: 256, memory_mb: 1024, defaults: true });
    expect(held.get('bob')).toEqual({ processes: 512, memory_mb: 128 });
    await call('DELETE', limitsOf(blog));
    expect(held.get('bob')).toEqual({ processes: 256, memory_mb: 1024 });
  });

  it('refuses limits out of bounds at their field, and the server is not asked', async () => {
    const id = await makeApp('bounded');
    held.delete('alice');
    for (const [body, field] of [
      [{ processes: 8, memory_mb: 1024 }, 'processes'],
      [{ processes: 100_000, memory_mb: 1024 }, 'processes'],
      [{ processes: 256, memory_mb: 1 }, 'memory_mb'],
      [{ processes: '64 && reboot', memory_mb: 1024 }, 'processes'],
    ] as const) {
      const res = await call('PUT', limitsOf(id), body);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    expect(held.has('alice')).toBe(false);
  });

  it('refuses the change while the server is offline, and keeps the old setting', async () => {
    const id = await makeApp('offline');
    await agent.disconnect();
    const res = await call('PUT', limitsOf(id), { processes: 64, memory_mb: 512 });
    expect(res.statusCode, res.body).toBe(409);
    await agent.reconnect();
    expect((await call('GET', limitsOf(id))).json()).toMatchObject({ defaults: true });
  });

  it("keeps another tenant out of the owner's app", async () => {
    const id = await makeApp('private');
    const before = held.get('alice');
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { processes: 9000, memory_mb: 65_536 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, limitsOf(id, other.id), body, other.token);
      // Their own account does not hold the server; the owner's account is not theirs.
      expect(res.statusCode).toBe(404);
      const named = await call(method, limitsOf(id), body, other.token);
      expect([403, 404]).toContain(named.statusCode);
    }
    expect(held.get('alice')).toEqual(before);
  });
});
