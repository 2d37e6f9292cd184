import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookPost, startWebhookReceiver } from '../fakes/webhookReceiver';
import type { AppSpec } from '../../features/webapps/resource';
import type { FakeAgent } from './fakeAgent';
import { startFakeAgent } from './fakeAgent';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { EVENTS } from '../../resources/agent/protocol';
import { type LiveApp, openSocket, sampleReport, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Alerts (features/alerts): settings and their checks, and the alerts a user gets by mail and
 * webhook as the panel's clock moves: one on opening, one "recovered", never a storm.
 */
const MINUTE = 60_000;
const DAY = 86_400_000;
let offset = 0;
const clock = () => Date.now() + offset;

const settings = {
  mail: true,
  webhook_url: '',
  offline: true,
  offline_minutes: 5,
  disk: true,
  disk_percent: 90,
  disk_minutes: 10,
  memory: true,
  memory_percent: 90,
  memory_minutes: 10,
  cert_expiry: true,
  task_failed: true,
  repeat_hours: 0,
};

async function until(check: () => Promise<boolean>, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 15_000) throw new Error(`waited 15 s for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('alert settings', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await t.user();
  });
  afterAll(() => t.close());
  const url = () => `/api/v1/alerts/settings/users/${user.id}`;

  it('are the defaults until saved, then what was saved', async () => {
    const first = await t.call('GET', url(), { token: user.token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...settings, id: user.id, updated_at: null });
    const body = { ...settings, offline_minutes: 15, disk: false, repeat_hours: 6 };
    const saved = await t.call('PUT', url(), { token: user.token, body });
    expect(saved.statusCode, saved.body).toBe(200);
    const again = await t.call('GET', url(), { token: user.token });
    expect(again.json()).toMatchObject({ offline_minutes: 15, disk: false, repeat_hours: 6 });
  });

  it.each([
    ['http://127.0.0.1:9/hook', '127.0.0.1 is a private or local address'],
    ['https://10.1.2.3/hook', '10.1.2.3 is a private or local address'],
    ['http://169.254.169.254/latest', '169.254.169.254 is a private or local address'],
    ['http://localhost:8080/hook', 'localhost resolves to'],
    ['http://[::1]/hook', '::1 is a private or local address'],
  ])('refuse a webhook on %s, naming the field', async (webhook, words) => {
    const res = await t.call('PUT', url(), {
      token: user.token,
      body: { ...settings, webhook_url: webhook },
    });
    expect(res.statusCode).toBe(400);
    const fields = (res.json() as { errors: Record<string, string> }).errors;
    expect(Object.keys(fields)).toEqual(['webhook_url']);
    expect(fields.webhook_url).toContain(words);
    expect(fields.webhook_url).toContain('unless its administrator allows it');
  });

  it('show the webhook URL to its owner only', async () => {
    const hook = 'https://hooks.example.com/services/T000/B000/secret';
    const saved = await t.call('PUT', url(), {
      token: user.token,
      body: { ...settings, webhook_url: hook },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().webhook_url).toBe(hook);
    const admin = await t.user({ admin: true });
    const seen = await t.call('GET', url(), { token: admin.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().webhook_url).toBe('••••••');
    const acting = await t.actAs(admin.token, user.id);
    expect((await t.call('GET', url(), { token: acting })).json().webhook_url).toBe('••••••');
    // An admin saving the form as shown keeps the owner's URL.
    const kept = await t.call('PUT', url(), {
      token: acting,
      body: { ...settings, webhook_url: '••••••', offline_minutes: 7 },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const mine = (await t.call('GET', url(), { token: user.token })).json();
    expect(mine).toMatchObject({ webhook_url: hook, offline_minutes: 7 });
    const stored = await t.app.db
      .selectFrom('alert_settings')
      .select('webhook_url')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.webhook_url).not.toContain('hooks.example.com');
  });
});

describe('alerts', () => {
  let live: LiveApp;
  let owner: TestUser;
  let agent: FakeAgent;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let posts: WebhookPost[];

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    posts = hook.posts;
    // The admin allows the panel to post to this machine's 127.0.0.1 (OUTBOUND_ALLOW).
    live = await startLiveApp({ clock }, { outboundAllow: ['127.0.0.1'] });
    owner = await live.t.user();
    const saved = await live.t.call('PUT', `/api/v1/alerts/settings/users/${owner.id}`, {
      token: owner.token,
      body: { ...settings, webhook_url: hook.url },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    agent = await startFakeAgent(live, owner, {
      'webapp.apply': (spec: AppSpec) => ({ path: `/home/${spec.user}/apps/${spec.name}` }),
      'ssl.letsencrypt': () => ({
        names: ['shop.example.com'],
        issuer: 'CN=Pebble Intermediate',
        not_before: '2026-01-01T00:00:00.000Z',
        not_after: new Date(Date.now() + 10 * DAY).toISOString(),
      }),
    });
  });
  afterAll(async () => {
    live.disconnectAll();
    await live.close();
    await hook?.close();
  });

  /** Runs a check as its schedule would, and waits for it and the sends it enqueued. */
  async function run(job: 'alerts.check' | 'alerts.cert-check') {
    const { app } = live.t;
    const queued = await app.jobs.enqueue(job, {});
    await until(async () => (await app.jobs.status(job, queued.id!))?.state === 'done', job);
    await until(async () => (await sendsLeft()) === 0, 'the sends');
    await app.services.mailer.flush();
  }
  async function sendsLeft(): Promise<number> {
    const { app } = live.t;
    const row =
      app.jobs.engine === 'sqlite'
        ? await app.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('name', '=', 'alerts.deliver')
            .where('state', 'in', ['queued', 'running'])
            .executeTakeFirstOrThrow()
        : (
            await sql<{ n: number }>`select count(*)::int as n from pgboss.job
              where name = 'alerts.deliver' and state in ('created', 'retry', 'active')`.execute(
              app.db,
            )
          ).rows[0]!;
    return Number(row.n);
  }
  const mails = () =>
    live.t.app.db
      .selectFrom('outbox')
      .select('subject')
      .where('to_addr', '=', owner.email)
      .where('subject', 'like', '[Stackdeck]%')
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => r.subject));
  /** The agent leaves (or comes back) and the panel's server row says so, as the check reads it. */
  async function goOffline() {
    await agent.disconnect();
    await until(async () => !(await connected()), 'the server shown offline');
  }
  async function comeBack() {
    await agent.reconnect();
    await until(connected, 'the server shown online');
  }
  const connected = async () =>
    (
      await live.t.call('GET', `/api/v1/servers/${agent.server.id}/users/${owner.id}`, {
        token: owner.token,
      })
    ).json().connected === true;
  const history = async () =>
    (
      await live.t.call('GET', `/api/v1/alerts/users/${owner.id}`, { token: owner.token })
    ).json() as { data: { kind: string; subject: string; state: string }[]; total: number };

  it('an offline server: one alert, one mail, one webhook call; recovered: one each', async () => {
    await goOffline();
    await run('alerts.check');
    expect(await mails()).toEqual([]);
    offset += 6 * MINUTE;
    await run('alerts.check');
    await run('alerts.check');
    expect(await mails()).toEqual(['[Stackdeck] Server fake-1 is offline']);
    expect(posts.map((p) => p.text.split('\n')[0])).toEqual(['Server fake-1 is offline']);
    expect(posts[0]!.content).toBe(posts[0]!.text);
    expect((await history()).data).toMatchObject([
      { kind: 'server.offline', subject: 'fake-1', state: 'open' },
    ]);

    await comeBack();
    await run('alerts.check');
    await run('alerts.check');
    expect(await mails()).toEqual([
      '[Stackdeck] Server fake-1 is offline',
      '[Stackdeck] Recovered: Server fake-1 is back online',
    ]);
    expect(posts).toHaveLength(2);
    expect((await history()).data).toMatchObject([{ kind: 'server.offline', state: 'closed' }]);
  });

  it('a server that drops and comes back within its minutes opens nothing', async () => {
    const before = (await mails()).length;
    for (let i = 0; i < 3; i++) {
      await goOffline();
      await run('alerts.check');
      offset += 3 * MINUTE;
      await comeBack();
      await run('alerts.check');
    }
    expect((await mails()).length).toBe(before);
    expect((await history()).total).toBe(1);
  });

  it('a disk above its threshold for its minutes: one alert, then recovered', async () => {
    const { app } = live.t;
    const report = async (used: number) => {
      app.live.report(agent.server, sampleReport({ disk: { total: 100e9, used }, at: Date.now() }));
      await app.live.flush();
    };
    await report(95e9);
    await run('alerts.check');
    offset += 5 * MINUTE;
    await run('alerts.check');
    expect((await history()).total).toBe(1);
    offset += 6 * MINUTE;
    await report(96e9);
    await run('alerts.check');
    await run('alerts.check');
    const [latest] = (await history()).data;
    expect(latest).toMatchObject({ kind: 'disk.high', subject: 'fake-1', state: 'open' });
    expect((await mails()).at(-1)).toBe('[Stackdeck] The disk of fake-1 is nearly full');
    await report(50e9);
    await run('alerts.check');
    expect((await mails()).at(-1)).toBe(
      '[Stackdeck] Recovered: The disk of fake-1 is back under its threshold',
    );
    expect((await history()).total).toBe(2);
  });

  it('memory above its threshold for its minutes: one alert, then recovered', async () => {
    const { app } = live.t;
    const before = (await history()).total;
    const report = async (used: number) => {
      const memory = { total: 4e9, used, swap_total: 0, swap_used: 0 };
      app.live.report(agent.server, sampleReport({ memory, at: Date.now() }));
      await app.live.flush();
    };
    // 95% for 5 minutes is under its 10: nothing yet.
    await report(3.8e9);
    await run('alerts.check');
    offset += 5 * MINUTE;
    await run('alerts.check');
    expect((await history()).total).toBe(before);
    offset += 6 * MINUTE;
    await report(3.9e9);
    await run('alerts.check');
    await run('alerts.check');
    const [latest] = (await history()).data;
    expect(latest).toMatchObject({ kind: 'memory.high', subject: 'fake-1', state: 'open' });
    expect((await history()).total).toBe(before + 1);
    expect((await mails()).at(-1)).toBe('[Stackdeck] The memory of fake-1 is nearly used up');
    await report(1e9);
    await run('alerts.check');
    expect((await mails()).at(-1)).toBe(
      '[Stackdeck] Recovered: The memory of fake-1 is back under its threshold',
    );
    expect((await history()).data[0]).toMatchObject({ kind: 'memory.high', state: 'closed' });
  });

  it('quiet repeats: an open alert is said again after its hours, not before', async () => {
    const put = (repeat_hours: number) =>
      live.t.call('PUT', `/api/v1/alerts/settings/users/${owner.id}`, {
        token: owner.token,
        body: { ...settings, webhook_url: '', repeat_hours },
      });
    expect((await put(2)).statusCode).toBe(200);
    await goOffline();
    offset += 6 * MINUTE;
    await run('alerts.check');
    await run('alerts.check');
    expect((await mails()).at(-1)).toBe('[Stackdeck] Server fake-1 is offline');
    const count = (await mails()).length;
    offset += 60 * MINUTE;
    await run('alerts.check');
    expect((await mails()).length).toBe(count);
    offset += 61 * MINUTE;
    await run('alerts.check');
    await run('alerts.check');
    expect((await mails()).slice(count)).toEqual(['[Stackdeck] Still: Server fake-1 is offline']);
    expect((await put(0)).statusCode).toBe(200);
    offset += 3 * 60 * MINUTE;
    await run('alerts.check');
    expect((await mails()).length).toBe(count + 1);
    await comeBack();
    await run('alerts.check');
    expect((await mails()).at(-1)).toBe('[Stackdeck] Recovered: Server fake-1 is back online');
  });

  it('a certificate within 14 days of its end: one alert, however many checks', async () => {
    const base = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
    await addSysuser(live.t.app.db, agent.server.id, 'shop');
    const site = await live.t.call('POST', base('webstacks'), {
      token: owner.token,
      body: { name: 'shop', domains: ['shop.example.com'], sys_user: 'shop' },
    });
    expect(site.statusCode, site.body).toBe(201);
    const cert = await live.t.call('POST', base('letsencrypt'), {
      token: owner.token,
      body: { webapp_id: site.json().id, email: 'ops@example.com' },
    });
    expect(cert.statusCode, cert.body).toBe(201);
    await until(
      async () =>
        (
          await live.t.app.db
            .selectFrom('sslcerts')
            .select('not_after')
            .where('id', '=', cert.json().id)
            .executeTakeFirst()
        )?.not_after != null,
      'the certificate',
    );
    await run('alerts.cert-check');
    await run('alerts.cert-check');
    const opened = (await history()).data.filter((a) => a.kind === 'cert.expiring');
    expect(opened).toMatchObject([{ subject: 'shop.example.com', state: 'open' }]);
    expect((await mails()).filter((m) => m.includes('certificate'))).toEqual([
      '[Stackdeck] The certificate of shop.example.com expires soon',
    ]);
    // Renewed (as the SSL feature's read-back records it): the next day's check says so, once.
    await live.t.app.db
      .updateTable('sslcerts')
      .set({ not_after: new Date(clock() + 90 * DAY).toISOString() })
      .where('id', '=', cert.json().id)
      .execute();
    await run('alerts.cert-check');
    await run('alerts.cert-check');
    expect((await mails()).filter((m) => m.includes('certificate'))).toEqual([
      '[Stackdeck] The certificate of shop.example.com expires soon',
      '[Stackdeck] Recovered: The certificate of shop.example.com no longer expires soon',
    ]);
  });

  it("a failed task: one alert, said once, pushed to the owner's browsers", async () => {
    const { tasks } = live.t.app.services;
    const browser = await openSocket(live, owner.token);
    const pushed: unknown[] = [];
    browser.on(EVENTS.alert, (alert: unknown) => pushed.push(alert));
    const id = await tasks.create({
      userId: owner.id,
      serverId: agent.server.id,
      kind: 'gitdeploy',
      name: 'shop',
    });
    await tasks.addEvent(id, 'npm ci exited with 1', 4);
    await tasks.finish(id, 'failed');
    await until(async () => (await sendsLeft()) === 0, 'the sends');
    await live.t.app.services.mailer.flush();
    expect((await history()).data[0]).toMatchObject({
      kind: 'task.failed',
      subject: 'The deploy of shop',
    });
    expect((await mails()).filter((m) => m.includes('deploy'))).toEqual([
      '[Stackdeck] The deploy of shop failed',
    ]);
    await until(async () => pushed.length === 1, 'the push');
    expect(pushed[0]).toMatchObject({
      kind: 'task.failed',
      subject: 'The deploy of shop',
      state: 'closed',
    });
    const ok = await tasks.create({ userId: owner.id, kind: 'install', name: 'blog' });
    await tasks.finish(ok, 'completed');
    expect((await history()).data[0]).toMatchObject({ subject: 'The deploy of shop' });
  });
});
