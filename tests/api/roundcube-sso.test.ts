import { createHmac } from 'node:crypto';
import type { ManagedStatus } from '../../server/managed/table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { mailboxOfApp } from './mailRows';
import { addSysuser } from './serverRows';

/**
 * Roundcube's single sign-on in the panel, with a fake agent: the app's server takes the plugin
 * and the app's own key, the token opens the owner's mailbox only (signed with that key, for
 * that app, a minute), every open is in the activity log; refused for an admin (naming the user
 * or acting), a mailbox of another server, an app that is not Roundcube, a mailbox not ready, a
 * server without mail or offline. tests/system/roundcube-sso.test.ts signs in for real.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
let agent: FakeAgent;
let other: FakeAgent;
let rc: number;
let blog: number;
let mid: number;
let strangersMid: number;
let mail = true;

function fakeOps() {
  return {
    'mail.domain.set': () => ({ dkim_public_key: 'KEY', selector: 'mail' }),
    'mail.mailbox.set-many': (a: { mailboxes: unknown[] }) => ({ count: a.mailboxes.length }),
    'mail.forwards.set': (a: { forwards: unknown[] }) => ({ count: a.forwards.length }),
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'roundcube.sso.set': () => ({ changed: true, mail }),
  };
}

const on = (fake: FakeAgent, p: string, uid: number) =>
  `/api/v1/${p}/servers/${fake.server.id}/users/${uid}`;
const sso = (app = rc, uid = owner.id, fake = agent) => on(fake, `roundcube-sso/${app}`, uid);
const call = (method: 'GET' | 'POST', url: string, body?: unknown, token = owner.token) =>
  live.t.call(method, url, { token, body });

async function app(fake: FakeAgent, user: TestUser, name: string, type: string) {
  const res = await call(
    'POST',
    on(fake, 'webstacks', user.id),
    { name, domains: [`${name}.example`], sys_user: 'alice' },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  await live.t.app.db
    .updateTable('webapps')
    .set({ webapp_type: type })
    .where('id', '=', id)
    .execute();
  return id;
}

const lastSet = () =>
  agent.calls.filter((c) => c.name === 'roundcube.sso.set').at(-1)?.args as
    { user: string; app: string; app_id: number; key: string } | undefined;

async function activity(uid: number): Promise<string[]> {
  const rows = await live.t.app.db
    .selectFrom('account_activity')
    .select('message')
    .where('user_id', '=', uid)
    .execute();
  return rows.map((r) => r.message);
}

const setStatus = (id: number, status: ManagedStatus) =>
  live.t.app.db.updateTable('mail_users').set({ status }).where('id', '=', id).execute();

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  stranger = await live.t.user();
  admin = await live.t.user({ admin: true });
  agent = await startFakeAgent(live, owner, fakeOps(), 'rc-sso-a');
  other = await startFakeAgent(live, stranger, fakeOps(), 'rc-sso-b');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, other.server.id, 'alice');
  blog = await app(agent, owner, 'shop', 'wordpress');
  rc = await app(agent, owner, 'webmail', 'roundcube');
  mid = await mailboxOfApp(live, agent, owner, blog, { local: 'info', domain: 'shop.example' });
  const theirs = await app(other, stranger, 'elsewhere', 'wordpress');
  strangersMid = await mailboxOfApp(live, other, stranger, theirs, {
    local: 'info',
    domain: 'elsewhere.example',
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('Roundcube sign-on', () => {
  it("lists the server's mailboxes with the app's address, openable by the owner", async () => {
    const res = await call('GET', sso());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      url: 'http://webmail.example/',
      mailboxes: [{ id: mid, address: 'info@shop.example', status: 'active' }],
      can_open: true,
    });
  });

  it('opens the mailbox: the key sent to the app is the one that signs, for this app only', async () => {
    const before = Date.now();
    const res = await call('POST', sso(), { mailbox_id: mid });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as {
      url: string;
      token: string;
      expires_at: string;
      address: string;
    };
    expect(answer.url).toBe('http://webmail.example/');
    expect(answer.address).toBe('info@shop.example');
    const set = lastSet()!;
    expect(set).toMatchObject({ user: 'alice', app: 'webmail', app_id: rc });
    expect(set.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [body, mac] = answer.token.split('.') as [string, string];
    expect(createHmac('sha256', set.key).update(body).digest('base64url')).toBe(mac);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ v: 1, app: rc, email: 'info@shop.example' });
    const exp = claims.exp as number;
    expect(exp * 1000).toBeGreaterThan(before + 55_000);
    expect(exp * 1000).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(new Date(answer.expires_at).getTime()).toBe(exp * 1000);
    // The key stays the app's, sealed: the same on the next open, never in clear in the row.
    const again = await call('POST', sso(), { mailbox_id: mid });
    expect(again.statusCode).toBe(200);
    expect(lastSet()!.key).toBe(set.key);
    expect(again.json().token).not.toBe(answer.token);
    const row = await live.t.app.db
      .selectFrom('roundcube_sso')
      .selectAll()
      .where('webapp_id', '=', rc)
      .executeTakeFirstOrThrow();
    expect(row.sso_key).not.toContain(set.key);
    expect(live.t.app.services.box.open(row.sso_key)).toBe(set.key);
    expect(await activity(owner.id)).toContain(
      'Opened the mailbox info@shop.example in Roundcube (webmail)',
    );
    expect((await activity(owner.id)).join('\n')).not.toContain(answer.token);
  });

  it('says https once the app is served with a certificate', async () => {
    await live.t.app.db
      .insertInto('sslcerts')
      .values({
        server_id: agent.server.id,
        webapp_id: rc,
        type: 'custom',
        names: '["webmail.example"]',
        force_https: 1,
        served: 1,
        status: 'active',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .execute();
    const res = await call('POST', sso(), { mailbox_id: mid });
    expect(res.json().url).toBe('https://webmail.example/');
    await live.t.app.db.deleteFrom('sslcerts').where('webapp_id', '=', rc).execute();
  });
});

describe('who and what is refused', () => {
  it('refuses an admin naming the user and an admin acting as them; acting reads, cannot open', async () => {
    const before = agent.calls.length;
    let res = await call('POST', sso(), { mailbox_id: mid }, admin.token);
    expect(res.statusCode, res.body).toBe(403);
    const acting = await live.t.actAs(admin.token, owner.id);
    res = await call('POST', sso(), { mailbox_id: mid }, acting);
    expect(res.statusCode, res.body).toBe(403);
    res = await call('GET', sso(), undefined, acting);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().can_open).toBe(false);
    expect(agent.calls.length).toBe(before);
  });

  it("refuses another server's mailbox at the field, and another account's app as missing", async () => {
    const before = agent.calls.length;
    let res = await call('POST', sso(), { mailbox_id: strangersMid });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ mailbox_id: `No mailbox #${strangersMid} on this server` });
    res = await call('POST', sso(rc, owner.id, other), { mailbox_id: mid });
    expect(res.statusCode).toBe(404);
    res = await call('POST', sso(), { mailbox_id: 'all' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['mailbox_id']);
    expect(agent.calls.length).toBe(before);
  });

  it('refuses an app that is not Roundcube, a mailbox not ready, mail off, the server offline', async () => {
    const before = agent.calls.length;
    let res = await call('POST', sso(blog), { mailbox_id: mid });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('shop is not a Roundcube app');
    expect((await call('GET', sso(blog))).statusCode).toBe(409);

    await setStatus(mid, 'deleting');
    res = await call('POST', sso(), { mailbox_id: mid });
    expect(res.json().message).toBe('The mailbox is being removed');
    await setStatus(mid, 'pending');
    res = await call('POST', sso(), { mailbox_id: mid });
    expect(res.json().message).toBe('The mailbox is not ready yet');
    await setStatus(mid, 'active');

    const mailOff = (enabled: number) =>
      live.t.app.db
        .updateTable('mail_servers')
        .set({ enabled })
        .where('server_id', '=', agent.server.id)
        .execute();
    await mailOff(0);
    res = await call('POST', sso(), { mailbox_id: mid });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Mail is not enabled on this server');
    await mailOff(1);

    await agent.disconnect();
    res = await call('POST', sso(), { mailbox_id: mid });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/offline/);
    await agent.reconnect();
    expect(agent.calls.length).toBe(before);
  });

  it('mints nothing when the server has no master login for Roundcube yet', async () => {
    mail = false;
    const res = await call('POST', sso(), { mailbox_id: mid });
    mail = true;
    expect(res.statusCode).toBe(409);
    expect(res.json()).not.toHaveProperty('token');
    expect(res.json().message).toMatch(/no mail login/);
  });
});

describe('the launcher page', () => {
  it("posts to the app named in `to` alone, with a script of the panel's own", async () => {
    const res = await live.t.app.inject({
      method: 'GET',
      url: `/roundcube-sso/launch?to=${encodeURIComponent('https://webmail.example/')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; form-action https://webmail.example/; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(
      '<form id="launch" method="post" action="https://webmail.example/">',
    );
    expect(res.body).toContain('name="_sso"');
    expect(res.body).not.toMatch(/<script>/);
    const js = await live.t.app.inject({ method: 'GET', url: '/roundcube-sso/launch.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toContain('history.replaceState');
  });

  it('refuses a `to` that is not an app address', async () => {
    for (const to of [
      'javascript:alert(1)',
      'https://webmail.example/"><script>',
      'https://webmail.example/?_task=x',
      '//webmail.example/',
      '',
    ]) {
      const res = await live.t.app.inject({
        method: 'GET',
        url: `/roundcube-sso/launch?to=${encodeURIComponent(to)}`,
      });
      expect(res.statusCode, to).toBe(400);
      // The panel's own policy stays: its pages post to the panel alone.
      expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    }
  });
});
