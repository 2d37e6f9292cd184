import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * Git deployment through the API with a fake agent (recording what it is asked): configure
 * (host key pinned), branches, deploys as tasks with their output and end, rollback, the
 * webhook's signature, deduplication and branch filter, and removal.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let shop: number;
let release = 0;
const KEY = '127.0.0.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHostKeyForTheTestsOnly0123456789abcd';

const path = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const ofApp = (p: string) => path(`${p}/webstacks/${shop}`);
const wsid = (p: string) => `${path(p)}?wsid=${shop}`;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });
const asked = (name: string) => agent.calls.filter((c) => c.name === name).map((c) => c.args);

async function settled(id: number) {
  for (let i = 0; i < 200; i++) {
    const res = await call('GET', ofApp('gitdeploy/deploys'));
    const row = (res.json().data as { id: number; status: string }[]).find((d) => d.id === id)!;
    if (row.status !== 'running') return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('deploy still running');
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'gitdeploy.hostkey': () => ({
      lines: [KEY],
      fingerprints: ['256 SHA256:abc 127.0.0.1 (ED25519)'],
    }),
    'gitdeploy.branches': () => ({ branches: [{ name: 'main', commit: 'a'.repeat(40) }] }),
    'gitdeploy.deploy': (a: { branch: string; script: string }, ctx) => {
      ctx.progress('Cloning', 2);
      ctx.progress('building', 4);
      const commit = (++release).toString(16).padEnd(40, '0');
      return a.script.includes('false')
        ? {
            status: 'failed',
            commit,
            release: null,
            output: 'boom',
            message: 'The deployment script failed (exit 1)',
          }
        : {
            status: 'completed',
            commit,
            release: `r${release}`,
            output: `built ${a.branch}`,
            message: null,
          };
    },
    'gitdeploy.rollback': () => ({
      status: 'completed',
      commit: null,
      release: '20260101000000000-0000000000aa',
      output: '',
      message: null,
    }),
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  const app = await call('POST', path('webstacks'), {
    name: 'shop',
    domains: ['shop.example'],
    sys_user: 'alice',
  });
  expect(app.statusCode, app.body).toBe(201);
  shop = app.json().id as number;
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('git deployment', () => {
  it('answers 404 before it is configured', async () => {
    expect((await call('GET', wsid('gitdeploy'))).statusCode).toBe(404);
    expect((await call('POST', ofApp('gitdeploy/deploys'))).statusCode).toBe(404);
    expect((await call('GET', ofApp('gitwebhook'))).statusCode).toBe(404);
  });

  it('refuses unsafe repository URLs and branch names at their fields, asking no server', async () => {
    const before = agent.calls.length;
    const bad: [Record<string, unknown>, string][] = [
      [{ repository: '--upload-pack=touch /tmp/x' }, 'repository'],
      [{ repository: 'ext::sh -c id' }, 'repository'],
      [{ repository: 'file:///srv/git/site.git' }, 'repository'],
      [{ repository: '/srv/git/site.git' }, 'repository'],
      [{ repository: 'git@host:repo .git' }, 'repository'],
      [{ repository: 'https://user:pw@host/repo.git' }, 'repository'],
      [{ repository: 'git@host:a/../b.git' }, 'repository'],
      [{ repository: 'git@host:r.git', branch: '-b' }, 'branch'],
      [{ repository: 'git@host:r.git', branch: 'a..b' }, 'branch'],
      [{ repository: 'git@host:r.git', branch: 'feature/x.lock' }, 'branch'],
      [{ repository: 'git@host:r.git', script: 'x'.repeat(16 * 1024 + 1) }, 'script'],
      [{ repository: 'git@host:r.git', health_path: 'health' }, 'health_path'],
    ];
    for (const [body, field] of bad) {
      const res = await call('POST', wsid('gitdeploy'), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors, JSON.stringify(body)).toHaveProperty(field);
    }
    expect(agent.calls.length).toBe(before);
  });

  it('configures: the host key is scanned by the app user and pinned', async () => {
    const res = await call('POST', wsid('gitdeploy'), {
      repository: 'git@git.example:team/shop.git',
      branch: 'main',
      script: 'npm ci',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      id: shop,
      branch: 'main',
      health_path: '/',
      webhook_enabled: false,
      host_fingerprints: ['256 SHA256:abc 127.0.0.1 (ED25519)'],
    });
    expect(asked('gitdeploy.hostkey').at(-1)).toEqual({
      sys_user: 'alice',
      host: 'git.example',
      port: 22,
    });
    expect(
      (await call('POST', wsid('gitdeploy'), { repository: 'git@git.example:team/shop.git' }))
        .statusCode,
    ).toBe(409);
    expect((await call('GET', wsid('gitdeploy'))).json()).toMatchObject({
      repository: 'git@git.example:team/shop.git',
    });
    const branches = await call('GET', ofApp('gitbranch'));
    expect(branches.json()).toEqual({ branches: [{ name: 'main', commit: 'a'.repeat(40) }] });
    expect(asked('gitdeploy.branches').at(-1)).toMatchObject({ known_hosts: [KEY], app: 'shop' });
  });

  it('changes the branch and script; refuses a bad branch', async () => {
    expect(
      (await call('PATCH', wsid('gitdeploy'), { branch: '--force' })).json().errors,
    ).toHaveProperty('branch');
    const res = await call('PATCH', wsid('gitdeploy'), {
      branch: 'release/1.x',
      script: 'echo ok',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      branch: 'release/1.x',
      script: 'echo ok',
      repository: 'git@git.example:team/shop.git',
    });
  });

  it('deploys as a task: its events, its end, the history with commit and output', async () => {
    const res = await call('POST', ofApp('gitdeploy/deploys'));
    expect(res.statusCode, res.body).toBe(202);
    const { id, task_id } = res.json() as { id: number; task_id: number };
    const done = await settled(id);
    expect(done).toMatchObject({
      status: 'completed',
      trigger: 'manual',
      branch: 'release/1.x',
      output: 'built release/1.x',
      task_id,
    });
    const events = (await live.t.app.services.tasks.events(task_id)).map((e) => e.event);
    expect(events).toEqual([
      'Deploying release/1.x (manual)',
      'Cloning',
      'building',
      'Deployed 100000000000',
    ]);
    expect((await live.t.app.services.tasks.find(task_id))!.status).toBe('completed');
    expect(asked('gitdeploy.deploy').at(-1)).toMatchObject({
      sys_user: 'alice',
      app: 'shop',
      domain: 'shop.example',
      known_hosts: [KEY],
      script: 'echo ok',
    });
  });

  it('records a failed deploy with its message; one at a time per app', async () => {
    await call('PATCH', wsid('gitdeploy'), { script: 'false' });
    agent.delayMs = 300;
    const first = await call('POST', ofApp('gitdeploy/deploys'));
    const second = await call('POST', ofApp('gitdeploy/deploys'));
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('A deploy of shop is running: wait for its end');
    const done = await settled(first.json().id);
    agent.delayMs = 0;
    expect(done).toMatchObject({
      status: 'failed',
      message: 'The deployment script failed (exit 1)',
      output: 'boom',
    });
    expect((await live.t.app.services.tasks.find(first.json().task_id))!.status).toBe('failed');
    await call('PATCH', wsid('gitdeploy'), { script: '' });
  });

  it('rolls back to the release before', async () => {
    const res = await call('POST', ofApp('gitdeploy/rollback'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      trigger: 'rollback',
      status: 'completed',
      release: '20260101000000000-0000000000aa',
    });
  });

  describe('webhook', () => {
    let url: string;
    let secret: string;
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
    });

    it('stops when disabled', async () => {
      await call('PATCH', ofApp('gitwebhook'), { enabled: false });
      const body = '{"ref":"refs/heads/release/1.x"}';
      expect(
        (await hook(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret })).statusCode,
      ).toBe(404);
    });
  });

  it('removes the configuration and keeps the history', async () => {
    const res = await call('DELETE', ofApp('gitdeploy'));
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', wsid('gitdeploy'))).statusCode).toBe(404);
    expect((await call('GET', ofApp('gitdeploy/deploys'))).json().total).toBeGreaterThan(3);
  });
});
