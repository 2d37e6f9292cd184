import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepDeploys } from '../../features/gitdeploy/serverDeploy';
import { REPLAY_WINDOW_MS } from '../../features/gitdeploy/serverReplay';
import { type GitFixture, startGitFixture } from './gitdeployFixture';

/**
 * The git deployment webhook through the API with a fake agent: the secret shown once, the
 * signature (GitHub) or token (GitLab), deduplicated deliveries, the branch filter, and a push
 * during a running deploy: accepted and queued, later ones joining it, deployed at its end.
 */
let f: GitFixture;
let live: GitFixture['live'];
let call: GitFixture['call'];
let ofApp: GitFixture['ofApp'];
let settled: GitFixture['settled'];
let url: string;
let secret: string;
/** The panel's clock runs this far ahead of the real one. */
let ahead = 0;

const queuedFlag = async () =>
  (
    await live.t.app.db
      .selectFrom('git_configs')
      .select('deploy_queued')
      .where('webapp_id', '=', f.shop)
      .executeTakeFirstOrThrow()
  ).deploy_queued;

/** The deploy after `id`, once it ended. */
async function followUp(id: number) {
  for (let i = 0; i < 200; i++) {
    const next = (await f.deploys()).find((d) => d.id > id);
    if (next) return settled(next.id);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no deploy after ${id}`);
}

beforeAll(async () => {
  f = await startGitFixture({ clock: () => Date.now() + ahead });
  ({ live, call, ofApp, settled } = f);
  const res = await call('POST', f.wsid('gitdeploy'), {
    repository: 'git@git.example:team/shop.git',
    branch: 'release/1.x',
    script: 'echo ok',
  });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => {
  await f.close();
});

describe('git webhook', () => {
  const hook = (body: string, headers: Record<string, string>) =>
    live.t.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      payload: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const sign = (body: string, key = secret) =>
    `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

  it('shows the secret once, when generated', async () => {
    const disabled = await call('GET', ofApp('gitwebhook'));
    expect(disabled.json()).toMatchObject({ enabled: false, provider: 'github', secret: null });
    const res = await call('PATCH', ofApp('gitwebhook'), { enabled: true, regenerate: true });
    expect(res.statusCode, res.body).toBe(200);
    ({ url, secret } = res.json() as { url: string; secret: string });
    expect(url).toMatch(/\/api\/v1\/hooks\/git\/[A-Za-z0-9_-]{32}$/);
    expect((await call('GET', ofApp('gitwebhook'))).json()).toEqual({
      enabled: true,
      provider: 'github',
      url,
      secret: null,
    });
    expect(
      JSON.stringify(await live.t.app.db.selectFrom('git_configs').selectAll().execute()),
    ).not.toContain(secret);
  });

  it('answers 401 to a bad signature and 404 to an unknown token', async () => {
    const body = '{"ref":"refs/heads/release/1.x"}';
    expect(
      (await hook(body, { 'x-github-event': 'push', 'x-hub-signature-256': sign(body, 'wrong') }))
        .statusCode,
    ).toBe(401);
    expect((await hook(body, { 'x-github-event': 'push' })).statusCode).toBe(401);
    const unknown = await live.t.app.inject({
      method: 'POST',
      url: '/api/v1/hooks/git/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('pongs a ping, deploys a push to the branch once, ignores other branches', async () => {
    const ping = '{"zen":"Keep it simple."}';
    const pong = await hook(ping, {
      'x-github-event': 'ping',
      'x-hub-signature-256': sign(ping),
    });
    expect(pong.statusCode).toBe(200);
    expect(pong.json()).toEqual({ result: 'pong', deploy_id: null });

    const body = '{"ref":  "refs/heads/release/1.x"}';
    const headers = {
      'x-github-event': 'push',
      'x-hub-signature-256': sign(body),
      'x-github-delivery': 'd-1',
    };
    const res = await hook(body, headers);
    expect(res.statusCode, res.body).toBe(202);
    expect(await settled(res.json().deploy_id)).toMatchObject({
      status: 'completed',
      trigger: 'webhook',
    });
    const again = await hook(body, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().result).toMatch(/duplicate/);

    const other = '{"ref":"refs/heads/main"}';
    const ignored = await hook(other, {
      'x-github-event': 'push',
      'x-hub-signature-256': sign(other),
      'x-github-delivery': 'd-2',
    });
    expect(ignored.json()).toEqual({
      result: 'ignored: not a push to release/1.x (pushed main)',
      deploy_id: null,
    });
    const tag = '{"ref":"refs/tags/v1"}';
    expect(
      (await hook(tag, { 'x-github-event': 'push', 'x-hub-signature-256': sign(tag) })).json()
        .deploy_id,
    ).toBeNull();
  });

  it('queues one deploy for pushes during a running deploy; a manual deploy is still refused', async () => {
    const push = (delivery: string) => {
      const sent = `{"ref":"refs/heads/release/1.x","delivery":"${delivery}"}`;
      return hook(sent, {
        'x-github-event': 'push',
        'x-hub-signature-256': sign(sent),
        'x-github-delivery': delivery,
      });
    };
    const open = f.hold();
    const running = await call('POST', ofApp('gitdeploy/deploys'));
    expect(running.statusCode, running.body).toBe(202);
    const first = running.json().id as number;
    try {
      const queued = await push('q-1');
      expect(queued.statusCode, queued.body).toBe(202);
      expect(queued.json()).toEqual({
        result: 'queued: deploys the branch when the running deploy ends',
        deploy_id: null,
      });
      for (const delivery of ['q-2', 'q-3']) {
        const joined = await push(delivery);
        expect(joined.statusCode, joined.body).toBe(202);
        expect(joined.json().result).toBe('queued: joins the deploy already waiting');
      }
      const again = await push('q-1');
      expect(again.statusCode).toBe(200);
      expect(again.json().result).toMatch(/duplicate/);
      const manual = await call('POST', ofApp('gitdeploy/deploys'));
      expect(manual.statusCode).toBe(409);
      expect(manual.json().message).toBe('A deploy of shop is running: wait for its end');
      expect(await queuedFlag()).toBe(1);
      expect((await f.deploys()).filter((d) => d.status === 'running')).toHaveLength(1);
    } finally {
      open();
    }
    const asked = f.asked('gitdeploy.deploy').length;
    expect(await settled(first)).toMatchObject({ status: 'completed', trigger: 'manual' });
    const next = await followUp(first);
    expect(next).toMatchObject({ status: 'completed', trigger: 'webhook' });
    // One deploy for the three pushes, and none after it: nothing is left queued to start one.
    expect((await f.deploys()).filter((d) => d.id > first)).toHaveLength(1);
    expect(f.asked('gitdeploy.deploy').length).toBe(asked + 1);
    expect(await queuedFlag()).toBe(0);
  });

  it('deploys a captured push replayed with a new or no delivery id only once', async () => {
    const body = `{"ref":"refs/heads/release/1.x","after":"${'1'.repeat(40)}"}`;
    const signed = { 'x-github-event': 'push', 'x-hub-signature-256': sign(body) };
    const first = await hook(body, { ...signed, 'x-github-delivery': 'r-1' });
    expect(first.statusCode, first.body).toBe(202);
    await settled(first.json().deploy_id);
    const deploys = (await f.deploys()).length;
    const replays: Record<string, string>[] = [{ 'x-github-delivery': 'r-2' }, {}];
    for (const replay of replays) {
      const res = await hook(body, { ...signed, ...replay });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        result: 'duplicate delivery: already handled',
        deploy_id: null,
      });
    }
    expect((await f.deploys()).length).toBe(deploys);
    expect(await queuedFlag()).toBe(0);
  });

  it('remembers signed bodies for the window, by the panel clock, then lets them go', async () => {
    const remembered = async () =>
      (
        await live.t.app.db
          .selectFrom('git_deliveries')
          .select('delivery')
          .where('webapp_id', '=', f.shop)
          .where('delivery', 'like', 'body:%')
          .execute()
      ).length;
    const before = await remembered();
    expect(before).toBeGreaterThan(0);
    try {
      ahead += REPLAY_WINDOW_MS - 60_000;
      const tag = '{"ref":"refs/tags/v2"}';
      await hook(tag, { 'x-github-event': 'push', 'x-hub-signature-256': sign(tag) });
      expect(await remembered()).toBe(before + 1);
      ahead += 2 * 60_000;
      const other = '{"ref":"refs/tags/v3"}';
      await hook(other, { 'x-github-event': 'push', 'x-hub-signature-256': sign(other) });
      // Only the two within the window are left.
      expect(await remembered()).toBe(2);
    } finally {
      // Back to now: the owner's session would have expired a day ahead.
      ahead = 0;
    }
  });

  it('keeps a queued deploy in the database: the sweeper starts it (after a panel restart)', async () => {
    const [last] = await f.deploys();
    // What a panel stopped during the running deploy leaves: the flag, nothing running.
    await live.t.app.db
      .updateTable('git_configs')
      .set({ deploy_queued: 1 })
      .where('webapp_id', '=', f.shop)
      .execute();
    await sweepDeploys(live.t.app);
    expect(await queuedFlag()).toBe(0);
    expect(await followUp(last!.id)).toMatchObject({ status: 'completed', trigger: 'webhook' });
  });

  it("checks GitLab's token", async () => {
    await call('PATCH', ofApp('gitwebhook'), { provider: 'gitlab' });
    const body = '{"object_kind":"push","ref":"refs/heads/release/1.x"}';
    expect(
      (await hook(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'nope' })).statusCode,
    ).toBe(401);
    const res = await hook(body, {
      'x-gitlab-event': 'Push Hook',
      'x-gitlab-token': secret,
      'x-gitlab-event-uuid': 'g-1',
    });
    expect(res.statusCode, res.body).toBe(202);
    await settled(res.json().deploy_id);
    // The token is the same for every delivery: the body tells a replay.
    const replayed = await hook(body, {
      'x-gitlab-event': 'Push Hook',
      'x-gitlab-token': secret,
      'x-gitlab-event-uuid': 'g-2',
    });
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().result).toMatch(/duplicate/);
  });

  it('stops when disabled', async () => {
    await call('PATCH', ofApp('gitwebhook'), { enabled: false });
    const body = '{"ref":"refs/heads/release/1.x"}';
    expect(
      (await hook(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret })).statusCode,
    ).toBe(404);
  });
});
