import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Forwarders and catch-alls (spec s.2 "Email sidebar" /forwarders): made, listed, changed and
 * removed; the domain's whole forward set the server is sent (mailboxes' forwards, forwarders,
 * catch-all); loops and an address that is a mailbox refused at their field; queued while the
 * server is offline; another tenant's 404; gone with their app.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let agent: FakeAgent;
let theirs: FakeAgent;

/** The fake server's forward set per domain, as `mail.forwards.set` left it. */
const sets = new Map<string, { source: string; targets: string[]; keep_copy: boolean }[]>();
const made = new Set<string>();

function fakeMailOps() {
  return {
    'mail.domain.set': (a: { domain: string }) => {
      made.add(a.domain);
      return { dkim_public_key: `KEY-${a.domain}`, selector: 'mail' };
    },
    'mail.domain.remove': (a: { domain: string }) => ({ removed: made.delete(a.domain) }),
    'mail.mailbox.set-many': (a: {
      domain: string;
      mailboxes: unknown[];
      forwards?: { source: string; targets: string[]; keep_copy: boolean }[];
    }) => {
      if (a.forwards) sets.set(a.domain, a.forwards);
      return { count: a.mailboxes.length };
    },
    'mail.mailbox.remove': () => ({ removed: true }),
    'mail.forwards.set': (a: {
      domain: string;
      forwards: { source: string; targets: string[]; keep_copy: boolean }[];
    }) => {
      sets.set(a.domain, a.forwards);
      return { count: a.forwards.length };
    },
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'webapp.remove': () => ({ removed: true }),
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const on = (fake: FakeAgent, p: string, uid: number) =>
  `/api/v1/${p}/servers/${fake.server.id}/users/${uid}`;
const path = (p: string, uid = owner.id) => on(agent, p, uid);
const call = (method: Method, url: string, body?: unknown, token = owner.token) =>
  live.t.call(method, url, { token, body });
const create = (app: number) => `${path('mail-forwarder')}?wsid=${app}`;
const one = (id: number, uid = owner.id) => path(`mail-forwarder/${id}`, uid);
const catchAll = (app: number, domain?: string) =>
  `${path('mail-catchall')}?wsid=${app}${domain ? `&domain=${domain}` : ''}`;
const fieldsOf = (res: { json(): { errors?: Record<string, string> } }) => res.json().errors ?? {};
const sent = (domain: string) =>
  (sets.get(domain) ?? []).map((f) => [f.source, f.targets.join(','), f.keep_copy]);

async function newApp(fake: FakeAgent, user: TestUser, name: string): Promise<number> {
  await live.t.app.db
    .insertInto('mail_servers')
    .values({ server_id: fake.server.id, enabled: 1, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('server_id').doNothing())
    .execute();
  const res = await call(
    'POST',
    on(fake, 'webstacks', user.id),
    { name, domains: [`${name}.example`, `www.${name}.example`], sys_user: 'alice' },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function mailbox(app: number, local: string, domain: string): Promise<number> {
  const res = await call('POST', `${path('mail-user')}?wsid=${app}`, {
    local,
    domain,
    password: 'a long mail password',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function add(app: number, body: Record<string, unknown>) {
  const res = await call('POST', create(app), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; address: string; status: string };
}

let shop: number;
let blog: number;
let strangerApp: number;
let info: number;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  stranger = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeMailOps(), 'mail-f');
  theirs = await startFakeAgent(live, stranger, fakeMailOps(), 'mail-g');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, theirs.server.id, 'alice');
  shop = await newApp(agent, owner, 'shop');
  blog = await newApp(agent, owner, 'blog');
  strangerApp = await newApp(theirs, stranger, 'other');
  info = await mailbox(shop, 'info', 'shop.example');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('forwarders', () => {
  it('adds one on a domain with no mailbox yet: the domain is made, the set sent', async () => {
    const f = await add(blog, { local: 'Hello', domain: 'blog.example', targets: ['me@far.test'] });
    expect(f).toMatchObject({
      address: 'hello@blog.example',
      local: 'hello',
      catch_all: false,
      targets: ['me@far.test'],
      status: 'active',
      server_name: 'mail-f',
      webapp_name: 'blog',
    });
    expect(made.has('blog.example')).toBe(true);
    expect(sent('blog.example')).toEqual([['hello', 'me@far.test', false]]);
  });

  it("sends the union: the mailboxes' forwards, the forwarders, the catch-all", async () => {
    let res = await call('POST', `${path(`email-forwarding/mail-user/${info}`)}?wsid=${shop}`, {
      targets: ['boss@far.test'],
      keep_copy: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    await add(shop, {
      local: 'sales',
      domain: 'shop.example',
      targets: ['info@shop.example', 'Rep@Far.test', 'rep@far.test'],
    });
    res = await call('PUT', catchAll(shop), {
      domain: 'shop.example',
      targets: ['info@shop.example'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ address: '@shop.example', catch_all: true });
    expect(sent('shop.example')).toEqual([
      ['info', 'boss@far.test', true],
      ['sales', 'info@shop.example,rep@far.test', false],
      ['@', 'info@shop.example', false],
    ]);
    // A mailbox's forwarding, sent again, still carries the forwarders and the catch-all.
    await call('POST', `${path(`email-forwarding/mail-user/${info}`)}?wsid=${shop}`, {
      targets: [],
    });
    expect(sent('shop.example')).toEqual([
      ['sales', 'info@shop.example,rep@far.test', false],
      ['@', 'info@shop.example', false],
    ]);
  });

  it('refuses bad input, a mailbox address and a taken one at their field', async () => {
    const before = agent.calls.length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ local: '.x', domain: 'shop.example', targets: ['a@far.test'] }, 'local', /./],
      [{ local: 'x', domain: 'blog.example', targets: ['a@far.test'] }, 'domain', /shop/],
      [{ local: 'x', domain: 'shop.example', targets: [] }, 'targets', /At least one/],
      [{ local: 'x', domain: 'shop.example', targets: ['nobody'] }, 'targets.0', /address/],
      [
        {
          local: 'x',
          domain: 'shop.example',
          targets: Array.from({ length: 51 }, (_, i) => `a${i}@far.test`),
        },
        'targets',
        /At most 50/,
      ],
      [{ local: 'x', domain: 'shop.example', targets: ['x@shop.example'] }, 'targets', /itself/],
      [{ local: 'info', domain: 'shop.example', targets: ['a@far.test'] }, 'local', /mailbox/],
      [{ local: 'sales', domain: 'shop.example', targets: ['a@far.test'] }, 'local', /exists/],
    ];
    for (const [body, field, message] of cases) {
      const res = await call('POST', create(shop), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res)[field], JSON.stringify(body)).toMatch(message);
    }
    // A mailbox cannot take a forwarder's address either.
    const box = await call('POST', `${path('mail-user')}?wsid=${shop}`, {
      local: 'sales',
      domain: 'shop.example',
      password: 'a long mail password',
    });
    expect(box.statusCode).toBe(400);
    expect(fieldsOf(box).local).toMatch(/forwarder/);
    expect(agent.calls.length).toBe(before);
  });

  it('refuses loops through mailboxes, forwarders and the catch-all', async () => {
    const before = sets.get('shop.example');
    // info -> sales -> info.
    let res = await call('POST', `${path(`email-forwarding/mail-user/${info}`)}?wsid=${shop}`, {
      targets: ['sales@shop.example'],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res).targets).toMatch(/sales@shop\.example forwards back .*loop/);
    // x -> an unknown address of the domain -> the catch-all -> info; then info -> x loops.
    const x = await add(shop, {
      local: 'x',
      domain: 'shop.example',
      targets: ['nobody@shop.example'],
    });
    res = await call('POST', `${path(`email-forwarding/mail-user/${info}`)}?wsid=${shop}`, {
      targets: ['x@shop.example'],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res).targets).toMatch(/loop/);
    // A catch-all sending to an address of its own domain that nothing holds catches it again.
    res = await call('PUT', catchAll(shop), {
      domain: 'shop.example',
      targets: ['ghost@shop.example'],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res).targets).toMatch(/catch-all of shop\.example.*loop/);
    // An edit that would close a loop is refused too.
    res = await call('PATCH', one(x.id), { targets: ['sales@shop.example', 'x2@far.test'] });
    expect(res.statusCode, res.body).toBe(200);
    res = await call('PATCH', one(x.id), { targets: ['x@shop.example'] });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res).targets).toMatch(/itself/);
    expect(sets.get('shop.example')).not.toEqual(before);
    const del = await call('DELETE', one(x.id));
    expect(del.statusCode, del.body).toBe(200);
  });

  it('changes the targets and removes a forwarder: the set follows', async () => {
    const f = await add(shop, {
      local: 'news',
      domain: 'www.shop.example',
      targets: ['a@far.test'],
    });
    const res = await call('PATCH', one(f.id), { targets: ['b@far.test', 'c@far.test'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ targets: ['b@far.test', 'c@far.test'], status: 'active' });
    expect(sent('www.shop.example')).toEqual([['news', 'b@far.test,c@far.test', false]]);
    const gone = await call('DELETE', one(f.id));
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ id: f.id, status: 'deleted' });
    expect(sent('www.shop.example')).toEqual([]);
    expect((await call('PATCH', one(f.id), { targets: ['b@far.test'] })).statusCode).toBe(404);
  });

  it("lists the account's forwarders (not the catch-alls), paged, and its mail domains", async () => {
    const page = await call('GET', `/api/v1/mail-forwarders/users/${owner.id}?perPage=1&page=2`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().total).toBe(2);
    expect(page.json().data.map((f: { address: string }) => f.address)).toEqual([
      'sales@shop.example',
    ]);
    const domains = await call('GET', `/api/v1/mail-domains/users/${owner.id}`);
    expect(domains.statusCode, domains.body).toBe(200);
    expect(
      domains
        .json()
        .map((d: { domain: string; catch_all: { targets: string[] } | null }) => [
          d.domain,
          d.catch_all?.targets ?? null,
        ]),
    ).toEqual([
      ['blog.example', null],
      ['www.blog.example', null],
      ['shop.example', ['info@shop.example']],
      ['www.shop.example', null],
    ]);
    const them = await call(
      'GET',
      `/api/v1/mail-forwarders/users/${stranger.id}`,
      undefined,
      stranger.token,
    );
    expect(them.json().total).toBe(0);
  });

  it("is 404 for another tenant's forwarder, app and catch-all", async () => {
    const [sales] = (await call('GET', `/api/v1/mail-forwarders/users/${owner.id}`))
      .json()
      .data.filter((f: { local: string }) => f.local === 'sales');
    const before = agent.calls.length;
    const as = (method: Method, url: string, body?: unknown) =>
      call(method, url, body, stranger.token);
    expect(
      (await as('PATCH', one(sales.id, stranger.id), { targets: ['a@b.test'] })).statusCode,
    ).toBe(404);
    expect((await as('DELETE', one(sales.id, stranger.id))).statusCode).toBe(404);
    // Through their own server, naming the owner's forwarder: not found there either.
    const mine = on(theirs, `mail-forwarder/${sales.id}`, stranger.id);
    expect((await as('PATCH', mine, { targets: ['a@b.test'] })).statusCode).toBe(404);
    expect((await as('DELETE', mine)).statusCode).toBe(404);
    // The owner naming the stranger's app on the owner's server.
    const res = await call('POST', create(strangerApp), {
      local: 'y',
      domain: 'other.example',
      targets: ['a@far.test'],
    });
    expect(res.statusCode).toBe(404);
    expect((await call('DELETE', catchAll(strangerApp, 'other.example'))).statusCode).toBe(404);
    expect((await as('GET', `/api/v1/mail-forwarders/users/${owner.id}`)).statusCode).toBe(404);
    expect(agent.calls.length).toBe(before);
  });

  it('changes and removes the catch-all; one per domain', async () => {
    const first = await call('GET', `/api/v1/mail-domains/users/${owner.id}`);
    const held = first
      .json()
      .find((d: { domain: string }) => d.domain === 'shop.example').catch_all;
    const res = await call('PUT', catchAll(shop), {
      domain: 'shop.example',
      targets: ['sales@shop.example'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: held.id, targets: ['sales@shop.example'] });
    expect(sent('shop.example').at(-1)).toEqual(['@', 'sales@shop.example', false]);
    const bad = await call('DELETE', catchAll(shop, 'not a domain'));
    expect(bad.statusCode).toBe(400);
    const gone = await call('DELETE', catchAll(shop, 'shop.example'));
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ id: held.id, status: 'deleted' });
    expect(sent('shop.example').map((f) => f[0])).toEqual(['sales']);
    expect((await call('DELETE', catchAll(shop, 'shop.example'))).statusCode).toBe(404);
  });

  it('queues while the server is offline and sends when it is back', async () => {
    await agent.disconnect();
    const res = await call('POST', create(shop), {
      local: 'later',
      domain: 'shop.example',
      targets: ['a@far.test'],
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: 'pending' });
    await agent.reconnect();
    await expect
      .poll(() => sent('shop.example').map((f) => f[0]), { timeout: 5000 })
      .toEqual(['sales', 'later']);
  });

  it('leave the server with their app, before its domains', async () => {
    const res = await call('DELETE', path(`webstacks/${blog}`));
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(sent('blog.example')).toEqual([]);
    expect(made.has('blog.example')).toBe(false);
    const left = await live.t.app.db
      .selectFrom('mail_forwarders')
      .select('id')
      .where('webapp_id', '=', blog)
      .execute();
    expect(left).toEqual([]);
  });
});
