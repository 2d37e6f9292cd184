import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookPost, startWebhookReceiver } from '../fakes/webhookReceiver';
import type { Sandbox } from '../../scripts/sandbox/index';
import {
  type Panel,
  type ServerRecord,
  installedSandbox,
  startPanel,
  waitConnected,
} from './harness/panel';

/**
 * Alerts on a real server: its agent stops, the panel's clock moves past the owner's minutes,
 * and the owner gets one mail (the outbox) and one webhook call; the agent starts again, and
 * they get one "recovered" of each. The clock moves: nothing waits five minutes.
 */
const MINUTE = 60_000;
let offset = 0;
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
let posts: WebhookPost[];

beforeAll(async () => {
  hook = await startWebhookReceiver(200);
  posts = hook.posts;
  // The admin lets the panel post to this machine (OUTBOUND_ALLOW=127.0.0.1).
  panel = await startPanel({
    clock: () => Date.now() + offset,
    config: { outboundAllow: ['127.0.0.1'] },
  });
  ({ sb, server } = await installedSandbox(panel, 'alerts', []));
  const saved = await panel.api('PUT', `alerts/settings/users/${panel.uid}`, {
    mail: true,
    webhook_url: hook.url,
    offline: true,
    offline_minutes: 5,
    disk: false,
    disk_percent: 90,
    disk_minutes: 10,
    memory: false,
    memory_percent: 90,
    memory_minutes: 10,
    cert_expiry: true,
    task_failed: true,
    repeat_hours: 0,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
  await hook?.close();
});

async function until(check: () => Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The minute check, as its schedule runs it; then its sends. */
async function check() {
  const { app } = panel.t;
  const job = await app.jobs.enqueue('alerts.check', {});
  await until(
    async () => (await app.jobs.status('alerts.check', job.id!))?.state === 'done',
    'the check',
  );
  await until(
    async () =>
      (
        await app.db
          .selectFrom('jobs')
          .select('id')
          .where('name', '=', 'alerts.deliver')
          .where('state', 'in', ['queued', 'running'])
          .execute()
      ).length === 0,
    'the sends',
  );
}

const email = async () =>
  (
    await panel.t.app.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', panel.uid)
      .executeTakeFirstOrThrow()
  ).email;
const alertMails = async () =>
  (
    await panel.t.app.db
      .selectFrom('outbox')
      .select('subject')
      .where('to_addr', '=', await email())
      .where('subject', 'like', '[Stackdeck]%')
      .orderBy('id')
      .execute()
  ).map((m) => m.subject);

describe('alerts of a sandbox server', () => {
  it('offline past its minutes: one mail, one webhook call; back: one "recovered" of each', async () => {
    await sb.execOk(['service', 'stackdeck-agent', 'stop']);
    await waitConnected(panel, server.id, false);
    await check();
    offset += 6 * MINUTE;
    await check();
    await check();
    const offline = `Server ${server.name} is offline`;
    expect(await alertMails()).toEqual([`[Stackdeck] ${offline}`]);
    expect(posts.map((p) => p.text.split('\n')[0])).toEqual([offline]);
    expect(posts[0]!.content).toBe(posts[0]!.text);

    await sb.execOk(['service', 'stackdeck-agent', 'start']);
    await waitConnected(panel, server.id, true);
    await check();
    await check();
    const back = `Recovered: Server ${server.name} is back online`;
    expect(await alertMails()).toEqual([`[Stackdeck] ${offline}`, `[Stackdeck] ${back}`]);
    expect(posts.map((p) => p.text.split('\n')[0])).toEqual([offline, back]);
  }, 180_000);
});
