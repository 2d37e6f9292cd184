import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * Git deployment on a real server: a git server inside the sandbox (a `git` user whose shell is
 * git-shell, a bare repository, the app user's deployment key in its authorized_keys) reached
 * over real SSH on 127.0.0.1 with the pinned host key; `curl` through nginx is the visitor.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let appId: number;

const REPO = 'git@127.0.0.1:/srv/git/site.git';
const APP = '/home/alice/apps/site';
const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const ofApp = (p: string) => path(`${p}/webstacks/${appId}`);
const wsid = (p: string) => `${path(p)}?wsid=${appId}`;

async function get(url = '/') {
  const res = await sb.exec([
    'curl',
    '-s',
    '-w',
    '\n%{http_code}',
    '-H',
    'Host: site.test',
    `http://127.0.0.1${url}`,
  ]);
  const lines = res.stdout.split('\n');
  const status = Number(lines.pop());
  return { status, body: lines.join('\n').trim() };
}

/** Commits files to a branch of the work copy (as the git user) and pushes it. */
async function push(branch: string, files: Record<string, string>, message: string) {
  const git = (args: string[], input?: string) =>
    sb.execOk(
      [
        'runuser',
        '-u',
        'git',
        '--',
        'env',
        'HOME=/home/git',
        'git',
        '-C',
        '/home/git/work',
        ...args,
      ],
      input === undefined ? {} : { input },
    );
  await git(['checkout', '-q', '-B', branch]);
  for (const [file, content] of Object.entries(files)) {
    await sb.execOk([
      'runuser',
      '-u',
      'git',
      '--',
      'mkdir',
      '-p',
      `/home/git/work/${file.replace(/\/[^/]*$/, '')}`,
    ]);
    await sb.execOk(['runuser', '-u', 'git', '--', 'tee', `/home/git/work/${file}`], {
      input: content,
    });
  }
  await git(['add', '-A']);
  await git([
    '-c',
    'user.name=Dev',
    '-c',
    'user.email=dev@site.test',
    'commit',
    '-q',
    '-m',
    message,
  ]);
  await git(['push', '-q', '-f', '/srv/git/site.git', `${branch}:${branch}`]);
  return (await git(['rev-parse', 'HEAD'])).stdout.trim();
}

type Deploy = {
  id: number;
  status: string;
  commit: string | null;
  message: string | null;
  output: string;
};

async function deploys(): Promise<Deploy[]> {
  const res = await panel.api('GET', ofApp('gitdeploy/deploys'));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Deploy[] }).data;
}

async function settled(id: number): Promise<Deploy> {
  for (let i = 0; i < 600; i++) {
    const row = (await deploys()).find((d) => d.id === id)!;
    if (row.status !== 'running') return row;
    await sleep(250);
  }
  throw new Error(`deploy ${id} still running`);
}

async function deployNow(): Promise<Deploy> {
  const res = await panel.api('POST', ofApp('gitdeploy/deploys'));
  expect(res.statusCode, res.body).toBe(202);
  return settled((res.json() as { id: number }).id);
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'gitdeploy', ['nginx', 'php8.2-fpm']));
  const user = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  const app = await panel.api('POST', path('webstacks'), {
    name: 'site',
    domains: ['site.test'],
    sys_user: 'alice',
  });
  expect(app.statusCode, app.body).toBe(201);
  appId = (app.json() as { id: number }).id;
  // The deployment key is the app user's (sysusers ?rsa=create), the git server's only key.
  const key = await panel.api(
    'GET',
    `sysusers/${user.json().id}/servers/${server.id}/users/${panel.uid}?rsa=create`,
  );
  expect(key.statusCode, key.body).toBe(200);
  const publicKey = (key.json() as { public_key: string }).public_key;
  await sb.execOk(['useradd', '-m', '-s', '/usr/bin/git-shell', 'git']);
  await sb.execOk(['mkdir', '-p', '-m', '0700', '/home/git/.ssh', '/srv/git']);
  await sb.execOk(['tee', '/home/git/.ssh/authorized_keys'], { input: `restrict ${publicKey}\n` });
  await sb.execOk(['chown', '-R', 'git:git', '/home/git/.ssh', '/srv/git']);
  await sb.execOk([
    'runuser',
    '-u',
    'git',
    '--',
    'git',
    'init',
    '-q',
    '--bare',
    '-b',
    'main',
    '/srv/git/site.git',
  ]);
  await sb.execOk([
    'runuser',
    '-u',
    'git',
    '--',
    'git',
    'init',
    '-q',
    '-b',
    'main',
    '/home/git/work',
  ]);
  await push('main', { 'public/index.html': 'version 1\n' }, 'v1');
  // What the site served before git: the first deploy turns this folder into a release.
  await sb.execOk(['rm', '-f', `${APP}/public/index.php`]);
  await sb.execOk(['runuser', '-u', 'alice', '--', 'tee', `${APP}/public/index.html`], {
    input: 'before git\n',
  });
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('git deployment on a sandbox server', () => {
  it('refuses a local path or an option as the repository', async () => {
    for (const repository of [
      '/srv/git/site.git',
      '--upload-pack=touch /tmp/x',
      'ext::sh -c id',
      'file:///srv/git/site.git',
    ]) {
      const res = await panel.api('POST', wsid('gitdeploy'), { repository, branch: 'main' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toHaveProperty('repository');
    }
    expect((await panel.api('GET', wsid('gitdeploy'))).statusCode).toBe(404);
  });

  it('configures the repository, pinning the host key, and lists its branches', async () => {
    const res = await panel.api('POST', wsid('gitdeploy'), {
      repository: REPO,
      branch: 'main',
      script: 'echo "building $STACKDECK_COMMIT as $(id -un)"\ntest -f public/index.html',
      health_path: '/',
    });
    expect(res.statusCode, res.body).toBe(201);
    const hostKey = (
      await sb.execOk([
        'ssh-keygen',
        '-l',
        '-E',
        'sha256',
        '-f',
        '/etc/ssh/ssh_host_ed25519_key.pub',
      ])
    ).stdout.split(' ')[1];
    expect((res.json() as { host_fingerprints: string[] }).host_fingerprints.join('\n')).toContain(
      hostKey,
    );
    const branches = await panel.api('GET', ofApp('gitbranch'));
    expect(branches.statusCode, branches.body).toBe(200);
    expect(branches.json().branches.map((b: { name: string }) => b.name)).toEqual(['main']);
  });

  it('deploys: the app folder becomes a link to the release, the site serves it', async () => {
    expect((await get()).body).toBe('before git');
    const commit = (
      await sb.execOk(['git', '--git-dir=/srv/git/site.git', 'rev-parse', 'main'])
    ).stdout.trim();
    const done = await deployNow();
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', commit });
    expect(done.output).toContain(`building ${commit} as alice`);
    expect(await get()).toEqual({ status: 200, body: 'version 1' });
    const target = (await sb.execOk(['readlink', APP])).stdout.trim();
    expect(target).toBe(`/home/alice/apps/.releases/site/${target.split('/').pop()}`);
    expect(target).toMatch(new RegExp(`-${commit.slice(0, 12)}$`));
    expect((await sb.execOk(['stat', '-c', '%U', APP, target])).stdout).toBe('alice\nalice\n');
    // The folder served before is kept as the first release.
    expect((await sb.execOk(['ls', '/home/alice/apps/.releases/site'])).stdout).toMatch(
      /-initial\n/,
    );
  });

  it('switches with no failed request while a curl loop runs', async () => {
    await push('main', { 'public/index.html': 'version 2\n' }, 'v2');
    const loop = sb.exec(
      [
        'bash',
        '-c',
        'ok=0; bad=0; while [ ! -e /tmp/stop ]; do b=$(curl -s -m 5 -H "Host: site.test" http://127.0.0.1/); case "$b" in "version 1"|"version 2") ok=$((ok+1));; *) bad=$((bad+1));; esac; done; echo "$ok $bad"',
      ],
      { timeoutMs: 300_000 },
    );
    await sleep(500);
    const done = await deployNow();
    await sleep(500);
    await sb.execOk(['touch', '/tmp/stop']);
    const [ok, bad] = (await loop).stdout.trim().split(' ').map(Number);
    expect(done.status, done.message ?? '').toBe('completed');
    expect(ok).toBeGreaterThan(10);
    expect(bad).toBe(0);
    expect((await get()).body).toBe('version 2');
  });

  it('rolls back a release whose health check fails', async () => {
    await push(
      'main',
      { 'public/index.html': 'version 3\n', 'public/health.php': '<?php http_response_code(500);' },
      'v3',
    );
    const patched = await panel.api('PATCH', wsid('gitdeploy'), { health_path: '/health.php' });
    expect(patched.statusCode, patched.body).toBe(200);
    const done = await deployNow();
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(/Health check failed.*500/);
    expect((await get()).body).toBe('version 2');
    await panel.api('PATCH', wsid('gitdeploy'), { health_path: '/' });
  });

  it('a failing deployment script leaves the site as it was', async () => {
    const patched = await panel.api('PATCH', wsid('gitdeploy'), {
      script: 'echo about to fail\nfalse\necho never',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const done = await deployNow();
    expect(done).toMatchObject({
      status: 'failed',
      message: 'The deployment script failed (exit 1)',
    });
    expect(done.output).toContain('about to fail');
    expect(done.output).not.toContain('never');
    expect((await get()).body).toBe('version 2');
    await panel.api('PATCH', wsid('gitdeploy'), { script: '' });
  });

  it('webhooks: a bad signature is 401, a push to the branch deploys, another branch does not', async () => {
    const hook = await panel.api('PATCH', ofApp('gitwebhook'), {
      enabled: true,
      provider: 'github',
      regenerate: true,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const { url, secret } = hook.json() as { url: string; secret: string };
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await panel.api('GET', ofApp('gitwebhook'))).json().secret).toBeNull();
    const send = (body: string, headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', ...headers },
      });
    const sign = (body: string) =>
      `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

    const v4 = await push('main', { 'public/index.html': 'version 4\n' }, 'v4');
    // Spaces kept as sent: the signature is over these bytes, not over a re-serialised object.
    const body = `{"ref": "refs/heads/main",  "after": "${v4}"}`;
    const bad = await send(body, {
      'x-hub-signature-256': sign(body + ' '),
      'x-github-delivery': randomUUID(),
    });
    expect(bad.status).toBe(401);
    expect((await get()).body).toBe('version 2');

    const delivery = randomUUID();
    const good = await send(body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': delivery,
    });
    expect(good.status).toBe(202);
    const answer = (await good.json()) as { deploy_id: number };
    expect(await settled(answer.deploy_id)).toMatchObject({ status: 'completed', commit: v4 });
    expect((await get()).body).toBe('version 4');

    const again = await send(body, {
      'x-hub-signature-256': sign(body),
      'x-github-delivery': delivery,
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      result: expect.stringMatching(/duplicate/),
      deploy_id: null,
    });

    const other = await push('other', { 'public/index.html': 'other branch\n' }, 'other');
    const otherBody = JSON.stringify({ ref: 'refs/heads/other', after: other });
    const ignored = await send(otherBody, {
      'x-hub-signature-256': sign(otherBody),
      'x-github-delivery': randomUUID(),
    });
    expect(ignored.status).toBe(200);
    expect((await ignored.json()) as object).toMatchObject({ deploy_id: null });
    await sleep(1000);
    expect((await get()).body).toBe('version 4');
    expect((await deploys()).filter((d) => d.status === 'running')).toEqual([]);
  });

  it('rolls back to the release before, and a removed configuration leaves the site serving', async () => {
    const back = await panel.api('POST', ofApp('gitdeploy/rollback'));
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'completed' });
    expect((await get()).body).toBe('version 2');
    const removed = await panel.api('DELETE', ofApp('gitdeploy'));
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await panel.api('GET', wsid('gitdeploy'))).statusCode).toBe(404);
    expect((await get()).body).toBe('version 2');
  });

  it('trusts the pinned host key only: a changed key stops the clone', async () => {
    const res = await panel.api('POST', wsid('gitdeploy'), { repository: REPO, branch: 'main' });
    expect(res.statusCode, res.body).toBe(201);
    // The git server's keys change (a man in the middle, as far as the app's user can tell).
    await sb.execOk([
      'bash',
      '-c',
      'rm -f /etc/ssh/ssh_host_*key* && ssh-keygen -A >/dev/null && (service ssh restart || /etc/init.d/ssh restart)',
    ]);
    const branches = await panel.api('GET', ofApp('gitbranch'));
    expect(branches.statusCode, branches.body).toBe(422);
    expect(branches.json().message).toMatch(/Host key verification failed/);
  });
});
