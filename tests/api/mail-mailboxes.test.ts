import type { PinoLoggerOptions } from 'fastify/types/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMailDomains } from '../../features/mail/serverApi';
import { opFieldError } from '../../agent/lib/opError';
import { loggerOptions } from '../../server/app';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Mailboxes of an app's domains (spec s.7 "Mail", `mail-user` and `email-forwarding`) and mail
 * per server (preflight, enable), with a fake agent whose mail lives in memory: the calls, bad
 * input at its field, forward loops, tenancy, the password never answered nor logged, and the
 * mail of a deleted app leaving its server. tests/system (the agent side) uses real clients.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let agent: FakeAgent;
const lines: string[] = [];
const PASSWORD = 'a long mail password';
const NEW_PASSWORD = 'another long mail password';

/** The fake server's mail: domain -> mailboxes (local -> hash, quota), forwards, DKIM keys. */
const domains = new Map<string, Map<string, { hash: string; quota: number }>>();
const forwards = new Map<string, unknown[]>();
const removed: { domain: string; local?: string; delete_mail: boolean }[] = [];
const port25 = false;
let enabledWith: unknown = null;

const check = (ok: boolean, message: string) => ({ ok, message });

function fakeMailOps() {
  return {
    'mail.preflight': () => ({
      hostname: check(true, 'mail.example resolves to this server'),
      ptr: check(false, 'No PTR record: ask your provider for one'),
      port25: check(port25, port25 ? 'Port 25 is open' : 'Port 25 outbound is blocked'),
    }),
    'mail.enable': (a: unknown) => {
      enabledWith = a;
      return { installed: ['postfix', 'dovecot-core'], changed: true };
    },
    'mail.domain.set': (a: { domain: string }) => {
      if (!domains.has(a.domain)) domains.set(a.domain, new Map());
      return { dkim_public_key: `KEY-${a.domain}`, selector: 'mail' };
    },
    'mail.domain.remove': (a: { domain: string; delete_mail: boolean }) => {
      removed.push(a);
      return { removed: domains.delete(a.domain) };
    },
    'mail.mailbox.set-many': (a: {
      domain: string;
      mailboxes: { local: string; password_hash: string | null; quota_mb: number }[];
      forwards?: unknown[];
    }) => {
      const boxes = domains.get(a.domain)!;
      for (const m of a.mailboxes) {
        const hash = m.password_hash ?? boxes.get(m.local)?.hash;
        if (!hash) throw new Error('no hash');
        boxes.set(m.local, { hash, quota: m.quota_mb });
      }
      if (a.forwards) forwards.set(a.domain, a.forwards);
      return { count: a.mailboxes.length };
    },
    'mail.mailbox.remove': (a: { domain: string; local: string; delete_mail: boolean }) => {
      removed.push(a);
      return { removed: Boolean(domains.get(a.domain)?.delete(a.local)) };
    },
    'mail.forwards.set': (a: { domain: string; forwards: unknown[] }) => {
      forwards.set(a.domain, a.forwards);
      return { count: a.forwards.length };
    },
    'mail.mailbox.list': (a: { domain: string }) =>
      [...(domains.get(a.domain) ?? new Map<string, { quota: number }>()).entries()].map(
        ([local, m]) => ({ local, quota_mb: m.quota }),
      ),
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'webapp.remove': () => ({ removed: true }),
  };
}

const path = (p: string, uid = owner.id) => `/api/v1/${p}/servers/${agent.server.id}/users/${uid}`;
const list = (app: number) => path(`mail-user/webstack/${app}`);
const create = (app: number) => `${path('mail-user')}?wsid=${app}`;
const one = (app: number, id: number) => `${path(`mail-user/${id}`)}?wsid=${app}`;
const forward = (app: number, id: number) =>
  `${path(`email-forwarding/mail-user/${id}`)}?wsid=${app}`;
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  token = owner.token,
) => live.t.call(method, url, { token, body });

async function newApp(name: string, extra: string[] = []): Promise<number> {
  const res = await call('POST', path('webstacks'), {
    name,
    domains: [`${name}.example`, ...extra],
    sys_user: 'alice',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function add(app: number, body: Record<string, unknown>) {
  const res = await call('POST', create(app), { password: PASSWORD, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; address: string; status: string };
}

const fieldsOf = (res: { json(): { errors?: Record<string, string> } }) =>
  Object.keys(res.json().errors ?? {});

let shop: number;
let blog: number;

beforeAll(async () => {
  const options = loggerOptions('debug') as PinoLoggerOptions;
  live = await startLiveApp({
    logger: { ...options, stream: { write: (line: string) => void lines.push(line) } },
  });
  owner = await live.t.user();
  stranger = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeMailOps(), 'mail-1');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  shop = await newApp('shop', ['www.shop.example']);
  blog = await newApp('blog');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('mail on a server', () => {
  it('is off until enabled; mailboxes wait for it', async () => {
    const state = await call('GET', path('mail'));
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({ enabled: false, smarthost: null, checks: null });
    const res = await call('POST', create(shop), {
      local: 'info',
      domain: 'shop.example',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/not enabled/);
  });

  it('runs the preflight and says its three checks in words', async () => {
    const res = await call('POST', path('mail-preflight'), {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      hostname: { ok: true },
      ptr: { ok: false, message: expect.stringMatching(/PTR/) },
      port25: { ok: false, message: expect.stringMatching(/blocked/) },
    });
  });

  it('needs a smarthost while port 25 is closed, and keeps its password sealed', async () => {
    const refused = await call('POST', path('mail'), {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.smarthost).toMatch(/blocked.*smarthost/);
    expect(enabledWith).toBeNull();

    const secret = 'relay secret 1234';
    const res = await call('POST', path('mail'), {
      smarthost: { host: 'smtp.relay.example', port: 587, username: 'me', password: secret },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      enabled: true,
      smarthost: { host: 'smtp.relay.example', port: 587, username: 'me' },
      checks: { port25: { ok: false } },
    });
    expect(res.body).not.toContain(secret);
    expect(enabledWith).toMatchObject({ smarthost: { password: secret } });
    const row = await live.t.app.db
      .selectFrom('mail_servers')
      .select('smarthost_password')
      .where('server_id', '=', agent.server.id)
      .executeTakeFirstOrThrow();
    expect(row.smarthost_password).toMatch(/^v1:/);
    expect(live.t.app.services.box.open(row.smarthost_password!)).toBe(secret);
    expect((await call('GET', path('mail'))).body).not.toContain(secret);
  });
});

describe('mailboxes of an app', () => {
  it('creates a mailbox, making its domain with a DKIM key; answers no password', async () => {
    const made = await add(shop, { local: 'Info', domain: 'shop.example', quota_mb: 500 });
    expect(made).toMatchObject({ address: 'info@shop.example', status: 'active', quota_mb: 500 });
    const held = domains.get('shop.example')!.get('info')!;
    expect(held.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(held.quota).toBe(500);
    expect(await appMailDomains(live.t.app.db, agent.server.id, shop)).toEqual([
      expect.objectContaining({
        domain: 'shop.example',
        selector: 'mail',
        dkim_public_key: 'KEY-shop.example',
      }),
    ]);
    // The hash is dropped once the server has it.
    const row = await live.t.app.db
      .selectFrom('mail_users')
      .select('password_hash')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();

    await add(shop, { local: 'sales', domain: 'www.shop.example' });
    const listed = await call('GET', `${list(shop)}?perPage=1&page=2&sort=local&order=ASC`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({
      total: 2,
      data: [{ address: 'sales@www.shop.example' }],
    });
    expect((await call('GET', list(blog))).json().total).toBe(0);
    for (const body of [listed.body, JSON.stringify(made)]) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain('argon2');
    }
    expect(JSON.stringify(agent.calls)).not.toContain(PASSWORD);
  });

  it('refuses bad input at its field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ local: '.dot', domain: 'shop.example' }, 'local'],
      [{ local: 'a..b', domain: 'shop.example' }, 'local'],
      [{ local: 'sp ace', domain: 'shop.example' }, 'local'],
      [{ local: 'ok', domain: 'blog.example' }, 'domain'],
      [{ local: 'ok', domain: 'not a domain' }, 'domain'],
      [{ local: 'ok', domain: 'shop.example', password: 'short' }, 'password'],
      [{ local: 'ok', domain: 'shop.example', quota_mb: -1 }, 'quota_mb'],
      [{ local: 'ok', domain: 'shop.example', quota_mb: 1.5 }, 'quota_mb'],
      [{ local: 'info', domain: 'shop.example' }, 'local'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', create(shop), { password: PASSWORD, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res), JSON.stringify(body)).toContain(field);
      expect(res.body).not.toContain(PASSWORD);
    }
    expect(domains.get('shop.example')!.has('ok')).toBe(false);
  });

  it('changes the password and the quota', async () => {
    const made = await add(blog, { local: 'me', domain: 'blog.example' });
    const before = domains.get('blog.example')!.get('me')!.hash;
    const res = await call('PATCH', one(blog, made.id), { password: NEW_PASSWORD, quota_mb: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ quota_mb: 0, status: 'active' });
    expect(res.body).not.toContain(NEW_PASSWORD);
    const after = domains.get('blog.example')!.get('me')!;
    expect(after.hash).not.toBe(before);
    expect(after.quota).toBe(0);
    const quotaOnly = await call('PATCH', one(blog, made.id), { quota_mb: 200 });
    expect(quotaOnly.statusCode).toBe(200);
    expect(domains.get('blog.example')!.get('me')).toEqual({ hash: after.hash, quota: 200 });
    const bad = await call('PATCH', one(blog, made.id), { password: 'short', quota_mb: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(['password', 'quota_mb']);
  });

  it("compares the page's mailboxes with the server's when asked (?sync=true)", async () => {
    const you = await add(blog, { local: 'you', domain: 'blog.example', quota_mb: 300 });
    const held = domains.get('blog.example')!;
    const kept = { me: held.get('me')!, you: held.get('you')! };
    try {
      held.delete('you');
      held.set('me', { ...kept.me, quota: 999 });
      const asked = agent.calls.length;
      const plain = await call('GET', `${list(blog)}?sort=local&order=ASC`);
      expect(plain.json().data.map((m: { drift?: unknown }) => m.drift)).toEqual([
        undefined,
        undefined,
      ]);
      expect(agent.calls.length).toBe(asked);
      const synced = await call('GET', `${list(blog)}?sort=local&order=ASC&sync=true`);
      expect(synced.statusCode, synced.body).toBe(200);
      expect(synced.json().data).toMatchObject([
        { address: 'me@blog.example', drift: 'changed' },
        { id: you.id, drift: 'missing' },
      ]);
      expect(agent.calls.slice(asked)).toEqual([
        { name: 'mail.mailbox.list', args: { domain: 'blog.example' } },
      ]);
      held.set('me', kept.me);
      held.set('you', kept.you);
      const same = await call('GET', `${list(blog)}?sync=true`);
      expect(same.json().data.map((m: { drift: unknown }) => m.drift)).toEqual([null, null]);
    } finally {
      held.set('me', kept.me);
      held.set('you', kept.you);
    }
  });

  it('forwards, keeping a copy or not; refuses itself and loops at the field', async () => {
    const info = (await call('GET', `${list(shop)}?sort=local&order=ASC`)).json().data[0];
    const sales = (await call('GET', `${list(shop)}?sort=local&order=ASC`)).json().data[1];
    const res = await call('POST', forward(shop, info.id), {
      targets: ['Sales@www.shop.example', 'me@elsewhere.example'],
      keep_copy: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      forward_to: ['sales@www.shop.example', 'me@elsewhere.example'],
      keep_copy: false,
    });
    expect(forwards.get('shop.example')).toEqual([
      {
        id: info.id,
        source: 'info',
        targets: ['sales@www.shop.example', 'me@elsewhere.example'],
        keep_copy: false,
      },
    ]);
    const self = await call('POST', forward(shop, info.id), { targets: ['info@shop.example'] });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors.targets).toMatch(/itself/);
    // sales -> info -> sales.
    const loop = await call('POST', forward(shop, sales.id), { targets: ['info@shop.example'] });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().errors.targets).toMatch(/loop/);
    const bad = await call('POST', forward(shop, sales.id), { targets: ['not an address'] });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)[0]).toMatch(/^targets/);
    // No targets: forwarding stops.
    const stop = await call('POST', forward(shop, info.id), { targets: [] });
    expect(stop.json()).toMatchObject({ forward_to: [] });
    expect(forwards.get('shop.example')).toEqual([]);
  });

  it('answers each of many mailboxes asked for at once, one the server refuses at its field', async () => {
    const app = await newApp('rounds');
    await add(app, { local: 'first', domain: 'rounds.example' });
    const setMany = agent.ops['mail.mailbox.set-many']!;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    // The first call waits until all four rows are in, so the others queue behind it.
    agent.ops['mail.mailbox.set-many'] = async (a: { mailboxes: { local: string }[] }, ctx) => {
      if (holding) {
        holding = false;
        await held;
      }
      if (a.mailboxes.some((m) => m.local === 'taken'))
        throw opFieldError('mailboxes.local', 'The server has another mailbox taken');
      return setMany(a as never, ctx);
    };
    const from = agent.calls.length;
    try {
      const asked = ['one', 'two', 'taken', 'three'].map((local) =>
        call('POST', create(app), { local, domain: 'rounds.example', password: PASSWORD }),
      );
      const rows = () =>
        live.t.app.db
          .selectFrom('mail_users')
          .select('id')
          .where('domain', '=', 'rounds.example')
          .execute();
      await expect.poll(async () => (await rows()).length).toBe(5);
      release();
      const answers = await Promise.all(asked);
      for (const [i, res] of answers.entries()) {
        if (i === 2) {
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().errors).toEqual({ local: 'The server has another mailbox taken' });
        } else expect(res.json(), res.body).toMatchObject({ status: 'active' });
      }
      expect([...domains.get('rounds.example')!.keys()].sort()).toEqual([
        'first',
        'one',
        'three',
        'two',
      ]);
      // Fewer calls than mailboxes: those that waited went together.
      const calls = agent.calls.slice(from).filter((c) => c.name === 'mail.mailbox.set-many');
      expect(calls.some((c) => (c.args as { mailboxes: unknown[] }).mailboxes.length >= 2)).toBe(
        true,
      );
    } finally {
      agent.ops['mail.mailbox.set-many'] = setMany;
    }
  });

  it('deletes a mailbox, with its mail when asked', async () => {
    const made = await add(blog, { local: 'gone', domain: 'blog.example' });
    const bad = await call('DELETE', `${one(blog, made.id)}&delete_mail=perhaps`);
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toContain('delete_mail');
    const res = await call('DELETE', `${one(blog, made.id)}&delete_mail=true`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: made.id, status: 'deleted' });
    expect(removed.at(-1)).toEqual({ domain: 'blog.example', local: 'gone', delete_mail: true });
    expect(domains.get('blog.example')!.has('gone')).toBe(false);
  });

  it('is 404 to another tenant, and under another app of the server', async () => {
    const info = (await call('GET', list(shop))).json().data[0] as { id: number };
    const asStranger = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      call(
        method,
        url.replace(`/users/${owner.id}`, `/users/${stranger.id}`),
        body,
        stranger.token,
      );
    expect((await asStranger('GET', list(shop))).statusCode).toBe(404);
    expect((await asStranger('PATCH', one(shop, info.id), { quota_mb: 1 })).statusCode).toBe(404);
    expect((await asStranger('DELETE', one(shop, info.id))).statusCode).toBe(404);
    expect((await asStranger('POST', forward(shop, info.id), { targets: [] })).statusCode).toBe(
      404,
    );
    expect((await asStranger('GET', path('mail'))).statusCode).toBe(404);
    expect((await call('PATCH', one(blog, info.id), { quota_mb: 1 })).statusCode).toBe(404);
    expect((await call('DELETE', one(blog, info.id))).statusCode).toBe(404);
  });

  it("takes an app's mailboxes and domains off the server with the app", async () => {
    const wiki = await newApp('wiki');
    await add(wiki, { local: 'a', domain: 'wiki.example' });
    await add(wiki, { local: 'b', domain: 'wiki.example' });
    expect(domains.get('wiki.example')!.size).toBe(2);
    const res = await call('DELETE', path(`webstacks/${wiki}`));
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(domains.has('wiki.example')).toBe(false);
    expect(removed).toContainEqual({ domain: 'wiki.example', delete_mail: false });
    const left = await live.t.app.db
      .selectFrom('mail_users')
      .select('id')
      .where('domain', '=', 'wiki.example')
      .execute();
    expect(left).toEqual([]);
    expect(await appMailDomains(live.t.app.db, agent.server.id, wiki)).toEqual([]);
  });

  it('never logs a password', () => {
    const log = lines.join('\n');
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [PASSWORD, NEW_PASSWORD, 'relay secret 1234'])
      expect(log).not.toContain(secret);
  });
});
