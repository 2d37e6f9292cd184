import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../features/webapps/resource';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The daily renewal check of Let's Encrypt certificates (features/ssl/serverRenewal.ts), a
 * job of the job platform: it reads back the servers whose certificates are near their end,
 * takes in a renewal certbot made there, reports one it did not make in time, and reads a
 * server once a day whatever the number of checks (an idempotency key per server and day).
 */
const DAY = 86_400_000;
let offset = 0;
const clock = () => Date.now() + offset;

let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let certId: number;
/** The last activity line before the checks: setting the app up may log system lines too. */
let linesBefore = 0;
/** What certbot's files on the server say. */
let onServer: { not_after: string };
const issued = new Date(Date.now() + 10 * DAY).toISOString();
const info = (notAfter: string) => ({
  names: ['renew.example.com'],
  issuer: 'CN=Pebble Intermediate',
  not_before: '2026-01-01T00:00:00.000Z',
  not_after: notAfter,
});

beforeAll(async () => {
  live = await startLiveApp({ clock });
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'webapp.apply': (spec: AppSpec) => ({ path: `/home/${spec.user}/apps/${spec.name}` }),
    'ssl.letsencrypt': () => info(issued),
    'ssl.list': () => [{ app: 'renew', ...info(onServer.not_after) }],
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  const base = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
  const app = await live.t.call('POST', base('webstacks'), {
    token: owner.token,
    body: { name: 'renew', domains: ['renew.example.com'], sys_user: 'alice' },
  });
  expect(app.statusCode, app.body).toBe(201);
  const cert = await live.t.call('POST', base('letsencrypt'), {
    token: owner.token,
    body: { webapp_id: app.json().id, email: 'ops@example.com' },
  });
  expect(cert.statusCode, cert.body).toBe(201);
  certId = cert.json().id;
  onServer = { not_after: issued };
  const last = await live.t.app.db
    .selectFrom('server_activity')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  linesBefore = Number(last?.id ?? 0);
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

async function until(check: () => Promise<boolean>, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 15_000) throw new Error(`waited 15 s for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const notAfter = async () =>
  (
    await live.t.app.db
      .selectFrom('sslcerts')
      .select('not_after')
      .where('id', '=', certId)
      .executeTakeFirstOrThrow()
  ).not_after;
const activity = () =>
  live.t.app.db
    .selectFrom('server_activity')
    .select(['message', 'status', 'error'])
    .where('server_id', '=', agent.server.id)
    .where('who', '=', 'system')
    .where('id', '>', linesBefore)
    .orderBy('id')
    .execute();
const lists = () => agent.calls.filter((c) => c.name === 'ssl.list').length;

/** Runs the day's check as its schedule would, and waits for it to end. */
async function check() {
  const job = await live.t.app.jobs.enqueue('ssl.renewal-check', {});
  await until(
    async () => (await live.t.app.jobs.status('ssl.renewal-check', job.id!))?.state === 'done',
    'the check',
  );
}

/** A read-back of another server, enqueued after the check's: it runs once those before it did. */
async function witness() {
  const job = await live.t.app.jobs.enqueue(
    'ssl.read-back',
    { serverId: 999_999 },
    { key: `witness-${Date.now()}` },
  );
  await until(
    async () => (await live.t.app.jobs.status('ssl.read-back', job.id!))?.state === 'done',
    'the witness',
  );
}

describe("the renewal check of Let's Encrypt certificates", () => {
  it('is a built-in daily schedule', async () => {
    const row = await live.t.app.db
      .selectFrom('schedules')
      .select(['cron', 'timezone', 'job'])
      .where('name', '=', 'ssl.renewal-check')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cron: '45 5 * * *', timezone: 'UTC', job: 'ssl.renewal-check' });
  });

  it('takes in a renewal certbot made on the server, and reads a server once a day', async () => {
    onServer = { not_after: new Date(Date.now() + 100 * DAY).toISOString() };
    await check();
    await until(async () => (await notAfter()) === onServer.not_after, 'the renewal taken in');
    expect(lists()).toBe(1);
    // The line is written pending, then finished: wait for the finished one.
    await until(
      async () => (await activity()).map((line) => line.status).join() === 'done',
      'the activity line, finished',
    );
    expect(await activity()).toEqual([
      {
        message: `The server renewed the Let's Encrypt certificate of renew.example.com: valid until ${onServer.not_after.slice(0, 10)}`,
        status: 'done',
        error: null,
      },
    ]);
    // The same day's second check (a retry, another panel) reads nothing again.
    await check();
    await witness();
    expect(lists()).toBe(1);
  });

  it('reports a certificate the server has not renewed a week before its end', async () => {
    // 95 days on: five days left, and certbot did nothing.
    offset = 95 * DAY;
    await check();
    await until(async () => (await activity()).length === 2, 'the report');
    expect(lists()).toBe(2);
    expect((await activity())[1]).toEqual({
      message: "Check the renewal of the Let's Encrypt certificate of renew.example.com",
      status: 'failed',
      error: `It ends on ${onServer.not_after.slice(0, 10)} and the server has not renewed it: renew it from the app's certificate page`,
    });
  });

  it('leaves a certificate far from its end alone', async () => {
    offset = 0;
    onServer = { not_after: new Date(Date.now() + 200 * DAY).toISOString() };
    await live.t.app.db
      .updateTable('sslcerts')
      .set({ not_after: onServer.not_after })
      .where('id', '=', certId)
      .execute();
    const before = lists();
    await check();
    await witness();
    expect(lists()).toBe(before);
  });
});
