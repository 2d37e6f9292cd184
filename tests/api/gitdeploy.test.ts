import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitFixture, KEY, startGitFixture } from './gitdeployFixture';

/**
 * Git deployment through the API with a fake agent (recording what it is asked): configure
 * (host key pinned), branches, deploys as tasks with their output and end, one at a time,
 * rollback, and removal. The webhook is gitdeploy-webhook.test.ts's.
 */
let f: GitFixture;
let live: GitFixture['live'];
let agent: GitFixture['agent'];
let call: GitFixture['call'];
let ofApp: GitFixture['ofApp'];
let wsid: GitFixture['wsid'];
let asked: GitFixture['asked'];
let settled: GitFixture['settled'];
let shop: number;

beforeAll(async () => {
  f = await startGitFixture();
  ({ live, agent, call, ofApp, wsid, asked, settled, shop } = f);
});
afterAll(async () => {
  await f.close();
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

  it('refuses a repository at a loopback, link-local or private address unless the admin allows it', async () => {
    const before = agent.calls.length;
    for (const repository of [
      'https://169.254.169.254/x.git',
      'ssh://127.0.0.1/srv/x.git',
      'ssh://git@127.0.0.2:2222/x.git',
      'git@127.0.0.1:team/x.git',
      'git@10.1.2.3:team/x.git',
      'https://172.16.0.1/x.git',
      'https://192.168.1.1/x.git',
      'git@0.0.0.0:x.git',
      // Spellings git's resolver reads as 127.0.0.1 and 169.254.169.254.
      'https://2130706433/x.git',
      'git@0x7f.1:x.git',
      'ssh://0177.0.0.1/x.git',
      'https://0xa9fea9fe/x.git',
    ]) {
      const res = await call('POST', wsid('gitdeploy'), { repository });
      expect(res.statusCode, repository).toBe(400);
      expect(res.json().errors.repository, repository).toMatch(/private or local address/);
    }
    expect(agent.calls.length).toBe(before);
    // The administrator's OUTBOUND_ALLOW lets one through (and goes to the agent's checks).
    live.t.app.config.outboundAllow = ['10.0.0.0/8'];
    try {
      const res = await call('POST', wsid('gitdeploy'), { repository: 'git@10.1.2.3:team/x.git' });
      expect(res.statusCode, res.body).toBe(201);
      expect(asked('gitdeploy.hostkey').at(-1)).toMatchObject({
        host: '10.1.2.3',
        outbound_allow: ['10.0.0.0/8'],
      });
      expect((await call('DELETE', ofApp('gitdeploy'))).statusCode).toBe(200);
    } finally {
      live.t.app.config.outboundAllow = [];
    }
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
      outbound_allow: [],
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

  it("leaves deploys and the rollback in the server's activity log, with who did them", async () => {
    const res = await call('GET', f.path('activity'));
    const lines = (res.json() as { data: { message: string; who: string; status: string }[] }).data;
    const mine = { who: f.owner.email, status: 'done' };
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: 'Deploy release/1.x to shop (manual)', ...mine }),
        expect.objectContaining({
          message: 'Roll shop back to 20260101000000000-0000000000aa',
          ...mine,
        }),
      ]),
    );
  });

  it('removes the configuration and keeps the history', async () => {
    const res = await call('DELETE', ofApp('gitdeploy'));
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', wsid('gitdeploy'))).statusCode).toBe(404);
    expect((await call('GET', ofApp('gitdeploy/deploys'))).json().total).toBe(3);
  });
});
