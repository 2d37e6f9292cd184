import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { mailboxThroughApi } from './mailRows';
import { addSysuser } from './serverRows';

/**
 * The account-wide email calls (spec s.2 "Email sidebar"): a mailbox's autoresponder and what
 * its server was sent, bad dates at their field, another tenant's 404, the account's mailboxes
 * (only its own) and the domains' disk use asked live, an offline server said per domain.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let agent: FakeAgent;
let other: FakeAgent;
let mid: number;

const boxes = new Map<string, Set<string>>();
function fakeMailOps() {
  return {
    'mail.domain.set': (a: { domain: string }) => {
      if (!boxes.has(a.domain)) boxes.set(a.domain, new Set());
      return { dkim_public_key: `KEY-${a.domain}`, selector: 'mail' };
    },
    'mail.mailbox.set-many': (a: { domain: string; mailboxes: { local: string }[] }) => {
      for (const m of a.mailboxes) boxes.get(a.domain)!.add(m.local);
      return { count: a.mailboxes.length };
    },
    'mail.forwards.set': (a: { forwards: unknown[] }) => ({ count: a.forwards.length }),
    'mail.vacation.set': (a: { vacation: unknown }) => ({ active: a.vacation !== null }),
    'mail.usage': (a: { domain: string }) =>
      [...(boxes.get(a.domain) ?? [])].map((local) => ({
        local,
        bytes: 1000,
        quota_used_kib: 1,
        quota_limit_kib: null,
      })),
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'webapp.remove': () => ({ removed: true }),
  };
}

const on = (fake: FakeAgent, p: string, uid: number) =>
  `/api/v1/${p}/servers/${fake.server.id}/users/${uid}`;
const auto = (id: number, uid = owner.id) => on(agent, `autoresponder/mail-user/${id}`, uid);
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  token = owner.token,
) => live.t.call(method, url, { token, body });

const mailbox = (fake: FakeAgent, user: TestUser, app: string, local: string) =>
  mailboxThroughApi(live, fake, user, app, local);

const vacationsSent = () => agent.calls.filter((c) => c.name === 'mail.vacation.set');

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  stranger = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeMailOps(), 'mail-a');
  other = await startFakeAgent(live, stranger, fakeMailOps(), 'mail-b');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, other.server.id, 'alice');
  mid = await mailbox(agent, owner, 'shop', 'info');
  await mailbox(other, stranger, 'elsewhere', 'them');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('autoresponders', () => {
  const body = {
    subject: 'Away',
    body: 'Back on Monday.',
    starts: '2026-12-01',
    ends: '2026-12-24',
    days: 3,
  };

  it('has none at first', async () => {
    const res = await call('GET', auto(mid));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ address: 'info@shop.example', autoresponder: null });
  });

  it('sets one and sends it to the server', async () => {
    const res = await call('PUT', auto(mid), body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().autoresponder).toMatchObject(body);
    expect(vacationsSent().at(-1)?.args).toEqual({
      domain: 'shop.example',
      local: 'info',
      vacation: { local: 'info', ...body },
    });
  });

  it('changes it', async () => {
    const res = await call('PUT', auto(mid), { ...body, subject: 'Still away', ends: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().autoresponder).toMatchObject({ subject: 'Still away', ends: null });
    expect(vacationsSent().at(-1)?.args).toMatchObject({
      vacation: { subject: 'Still away', ends: null },
    });
  });

  it('refuses bad dates and a two-line subject at their field, sending nothing', async () => {
    const before = vacationsSent().length;
    let res = await call('PUT', auto(mid), { ...body, starts: '2026-12-10', ends: '2026-12-01' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['ends']);
    res = await call('PUT', auto(mid), { ...body, starts: '2026-02-30', subject: 'a\nb', days: 0 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['days', 'starts', 'subject']);
    expect(vacationsSent().length).toBe(before);
  });

  it("is 404 for another tenant's mailbox", async () => {
    const res = await call('PUT', auto(mid, stranger.id), body, stranger.token);
    expect(res.statusCode).toBe(404);
    const gone = await call('GET', auto(9999));
    expect(gone.statusCode).toBe(404);
  });

  it('removes it: the server is sent null', async () => {
    const res = await call('DELETE', auto(mid));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().autoresponder).toBeNull();
    expect(vacationsSent().at(-1)?.args).toEqual({
      domain: 'shop.example',
      local: 'info',
      vacation: null,
    });
  });
});

describe('the account-wide email pages', () => {
  it('lists only the account mailboxes, paged', async () => {
    await mailbox(agent, owner, 'blog', 'hello');
    const res = await call('GET', `/api/v1/mail-users/users/${owner.id}?page=1&perPage=1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().total).toBe(2);
    expect(res.json().data).toHaveLength(1);
    const all = await call('GET', `/api/v1/mail-users/users/${owner.id}`);
    expect(all.json().data.map((m: { address: string }) => m.address)).toEqual([
      'hello@blog.example',
      'info@shop.example',
    ]);
    expect(all.json().data[1]).toMatchObject({ server_name: 'mail-a', webapp_name: 'shop' });
    const theirs = await call(
      'GET',
      `/api/v1/mail-users/users/${owner.id}`,
      undefined,
      stranger.token,
    );
    expect(theirs.statusCode).toBe(404);
    const own = await call(
      'GET',
      `/api/v1/mail-users/users/${stranger.id}`,
      undefined,
      stranger.token,
    );
    expect(own.json().data.map((m: { address: string }) => m.address)).toEqual([
      'them@elsewhere.example',
    ]);
  });

  it('says the disk use per domain, and an offline server per domain', async () => {
    const url = `/api/v1/email-disk-usage/users/${owner.id}`;
    let res = await call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          domain: 'shop.example',
          error: null,
          total_bytes: 1000,
          mailboxes: [{ address: 'info@shop.example', bytes: 1000, quota_mb: 1024 }],
        }),
      ]),
    );
    await agent.disconnect();
    res = await call('GET', url);
    expect(res.statusCode).toBe(200);
    for (const d of res.json())
      expect(d).toMatchObject({ error: expect.stringMatching(/offline/), total_bytes: null });
    await agent.reconnect();
  });
});
