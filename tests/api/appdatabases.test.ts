import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * An app's databases and users (spec "App databases", a resource under `app`): made on the
 * server's MariaDB like any database (a fake agent keeps it in memory here), listed per app,
 * and reachable only through an app of the path's server.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let other: FakeAgent;
const made: string[] = [];

const mariadb = () => ({
  'mariadb.db.set': (a: { name: string }) => {
    made.push(a.name);
    return { set: true as const };
  },
  'mariadb.user.set': (a: { name: string }) => {
    made.push(a.name);
    return { set: true as const };
  },
  'webapp.apply': (a: { name: string; user: string }) => ({
    path: `/home/${a.user}/apps/${a.name}`,
  }),
});

const path = (p: string, server = agent) =>
  `/api/v1/${p}/servers/${server.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

async function newApp(server: FakeAgent, name: string): Promise<number> {
  const res = await call('POST', path('webstacks', server), {
    name,
    domains: [`${name}.example`],
    sys_user: 'alice',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  [agent, other] = await Promise.all([
    startFakeAgent(live, owner, mariadb(), 'apps-1'),
    startFakeAgent(live, owner, mariadb(), 'apps-2'),
  ]);
  for (const server of [agent, other]) await addSysuser(live.t.app.db, server.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('app databases', () => {
  it("makes a database for an app, lists it under that app only and among the server's", async () => {
    const shop = await newApp(agent, 'shop');
    const blog = await newApp(agent, 'blog');
    const res = await call('POST', path(`webstackdb/${shop}`), { name: 'shop_db' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ id: expect.any(Number), name: 'shop_db', status: 'active' });
    expect(made).toContain('shop_db');
    const user = await call('POST', path(`webstackdbuser/${shop}`), {
      name: 'shop_user',
      password: 'a long database password',
      databases: [res.json().id],
    });
    expect(user.statusCode, user.body).toBe(201);
    expect(user.json()).toMatchObject({ name: 'shop_user', databases: [res.json().id] });

    const ofShop = await call('GET', path(`webstackdb/${shop}`));
    expect(ofShop.json()).toMatchObject({ total: 1, data: [{ name: 'shop_db' }] });
    expect((await call('GET', path(`webstackdb/${blog}`))).json().total).toBe(0);
    expect((await call('GET', path(`webstackdbuser/${shop}`))).json().data).toEqual([
      expect.objectContaining({ name: 'shop_user' }),
    ]);
    // They are the server's databases too.
    const all = await call('GET', path('databases'));
    expect(all.json().data.map((d: { name: string }) => d.name)).toContain('shop_db');
  });

  it("refuses an app of another server, even the caller's own", async () => {
    const elsewhere = await newApp(other, 'elsewhere');
    const res = await call('POST', path(`webstackdb/${elsewhere}`), { name: 'stray_db' });
    expect(res.statusCode).toBe(404);
    expect((await call('GET', path(`webstackdb/${elsewhere}`))).statusCode).toBe(404);
    expect((await call('GET', path('webstackdb/999999'))).statusCode).toBe(404);
    expect(made).not.toContain('stray_db');
  });

  it('says a name in use at its field', async () => {
    const app = await newApp(agent, 'wiki');
    await call('POST', path(`webstackdb/${app}`), { name: 'wiki_db' });
    const again = await call('POST', path(`webstackdb/${app}`), { name: 'wiki_db' });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toHaveProperty('name');
  });
});
