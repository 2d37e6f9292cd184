import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitSite, startGitSite } from './harness/gitServer';

/**
 * The git deployment webhook on a real server (harness/gitServer.ts: a git server in the
 * sandbox over SSH): GitHub's signature over the raw body, deduplicated deliveries, the branch
 * filter, and a push during a running deploy, queued and served once that deploy ends.
 */
let site: GitSite;
let panel: GitSite['panel'];
let repo: GitSite['repo'];
let ofApp: GitSite['ofApp'];
let get: GitSite['get'];
let deploys: GitSite['deploys'];
let settled: GitSite['settled'];
let url: string;
let secret: string;

const send = (body: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', ...headers },
  });
const sign = (body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

beforeAll(async () => {
  site = await startGitSite('gitwebhook');
  ({ panel, repo, ofApp, get, deploys, settled } = site);
  const res = await panel.api('POST', site.wsid('gitdeploy'), {
    repository: repo.url,
    branch: 'main',
    health_path: '/',
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(await site.deployNow()).toMatchObject({ status: 'completed' });
  expect((await get()).body).toBe('version 1');
}, 300_000);

afterAll(async () => {
  await site?.close();
});

describe('git webhook on a sandbox server', () => {
  it('webhooks: a bad signature is 401, a push to the branch deploys, another branch does not', async () => {
    const hook = await panel.api('PATCH', ofApp('gitwebhook'), {
      enabled: true,
      provider: 'github',
      regenerate: true,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    ({ url, secret } = hook.json() as { url: string; secret: string });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await panel.api('GET', ofApp('gitwebhook'))).json().secret).toBeNull();

    const v2 = await repo.push('main', { 'public/index.html': 'version 2\n' }, 'v2');
    // Spaces kept as sent: the signature is over these bytes, not over a re-serialised object.
    const body = `{"ref": "refs/heads/main",  "after": "${v2}"}`;
    const bad = await send(body, {
      'x-hub-signature-256': sign(body + ' '),
      'x-github-delivery': randomUUID(),
    });
    expect(bad.status).toBe(401);
    expect((await get()).body).toBe('version 1');

    const delivery = randomUUID();
    const good = await send(body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': delivery,
    });
    expect(good.status).toBe(202);
    const answer = (await good.json()) as { deploy_id: number };
    expect(await settled(answer.deploy_id)).toMatchObject({ status: 'completed', commit: v2 });
    expect((await get()).body).toBe('version 2');

    const again = await send(body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': delivery,
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      result: expect.stringMatching(/duplicate/),
      deploy_id: null,
    });

    const other = await repo.push('other', { 'public/index.html': 'other branch\n' }, 'other');
    const otherBody = JSON.stringify({ ref: 'refs/heads/other', after: other });
    const before = await deploys();
    const ignored = await send(otherBody, {
      'x-hub-signature-256': sign(otherBody),
      'x-github-delivery': randomUUID(),
    });
    // The answer is the decision: a deploy the hook starts or queues is in its answer and in
    // the table before it comes. Neither is: no deploy row, nothing queued for later.
    expect(ignored.status).toBe(200);
    expect((await ignored.json()) as object).toEqual({
      result: 'ignored: not a push to main (pushed other)',
      deploy_id: null,
    });
    expect(await deploys()).toEqual(before);
    const config = await panel.t.app.db
      .selectFrom('git_configs')
      .select('deploy_queued')
      .where('webapp_id', '=', site.appId)
      .executeTakeFirstOrThrow();
    expect(config.deploy_queued).toBe(0);
    expect((await get()).body).toBe('version 2');
  });

  it('a push during a running deploy is queued, and its commit served after that deploy', async () => {
    const slow = await panel.api('PATCH', site.wsid('gitdeploy'), { script: 'sleep 4' });
    expect(slow.statusCode, slow.body).toBe(200);
    const v3 = await repo.push('main', { 'public/index.html': 'version 3\n' }, 'v3');
    const started = await panel.api('POST', ofApp('gitdeploy/deploys'));
    expect(started.statusCode, started.body).toBe(202);
    const first = started.json() as { id: number; task_id: number };
    // Pushed once the running deploy has its clone: only the queued deploy can serve it.
    const tasks = panel.t.app.services.tasks;
    for (let i = 0; ; i++) {
      const events = (await tasks.events(first.task_id)).map((e) => e.event);
      if (events.some((e) => e.startsWith('Running the deployment script'))) break;
      if (i > 400) throw new Error(`no script started: ${events.join(', ')}`);
      await sleep(50);
    }
    const v4 = await repo.push('main', { 'public/index.html': 'version 4\n' }, 'v4');
    const body = JSON.stringify({ ref: 'refs/heads/main', after: v4 });
    const queued = await send(body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': randomUUID(),
    });
    expect(queued.status).toBe(202);
    expect(await queued.json()).toEqual({
      result: 'queued: deploys the branch when the running deploy ends',
      deploy_id: null,
    });
    const manual = await panel.api('POST', ofApp('gitdeploy/deploys'));
    expect(manual.statusCode).toBe(409);
    expect(await settled(first.id)).toMatchObject({ status: 'completed', commit: v3 });
    let next: { id: number } | undefined;
    for (let i = 0; i < 100 && !next; i++) {
      next = (await deploys()).find((d) => d.id > first.id);
      if (!next) await sleep(100);
    }
    expect(next, 'the queued deploy').toBeDefined();
    expect(await settled(next!.id)).toMatchObject({ status: 'completed', commit: v4 });
    expect((await get()).body).toBe('version 4');
    expect((await deploys()).filter((d) => d.id > first.id)).toHaveLength(1);
  });
});
