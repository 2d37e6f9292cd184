import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * An app's web-server logs (spec "Logs"): the page comes from the agent (a fake one here,
 * recording what it was asked), for the app `?wsid=` names; Apache's log exists only for
 * PHP apps of the NGINX plus Apache2 stack.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let shop: number;
const asked: unknown[] = [];

const page = { lines: ['one'], scroll_count: 1, total_size: 1, total_pages: 1, file_size: 4 };

const path = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

async function newApp(name: string, stack_type: string): Promise<number> {
  const res = await call('POST', path('webstacks'), {
    name,
    domains: [`${name}.example`],
    sys_user: 'alice',
    stack_type,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'weblog.page': (a: { page: number }) => {
      asked.push(a);
      return { ...page, scroll_count: a.page, has_more: false, estimated: false };
    },
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('web-server logs', () => {
  it("reads a page of the app's nginx log, by app name, server and type", async () => {
    shop = await newApp('shop', 'nginx');
    const res = await call('GET', `${path('nginxlog')}?wsid=${shop}&scroll_count=3&type=error`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ lines: ['one'], scroll_count: 3 });
    expect(asked.at(-1)).toEqual({ app: 'shop', server: 'nginx', type: 'error', page: 3 });
  });

  it('refuses the Apache log of an app nginx serves alone, and reads it on the hybrid stack', async () => {
    const refused = await call('GET', `${path('apachelog')}?wsid=${shop}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('shop is served by nginx alone: it has no Apache log');
    const wiki = await newApp('wiki', 'apache/nginx');
    const res = await call('GET', `${path('apachelog')}?wsid=${wiki}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(asked.at(-1)).toEqual({ app: 'wiki', server: 'apache', type: 'access', page: 1 });
  });

  it('refuses a page number out of range and an unknown type, before asking the server', async () => {
    const before = asked.length;
    for (const q of ['scroll_count=0', 'scroll_count=abc', 'type=debug'])
      expect((await call('GET', `${path('nginxlog')}?wsid=${shop}&${q}`)).statusCode).toBe(400);
    expect(asked.length).toBe(before);
  });
});
