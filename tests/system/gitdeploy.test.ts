import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE as APP, type GitSite, startGitSite } from './harness/gitServer';
import { waitFor } from '../waitFor';

/**
 * Git deployment on a real server: a git server inside the sandbox (harness/gitServer.ts) reached
 * over real SSH on 127.0.0.1 with the pinned host key; `curl` through nginx is the visitor.
 * Deploys, the switch under load, failures that leave the site as it was, rollback and the
 * pinned key; the webhook is gitdeploy-webhook.test.ts's.
 */
let site: GitSite;
let sb: GitSite['sb'];
let panel: GitSite['panel'];
let ofApp: GitSite['ofApp'];
let wsid: GitSite['wsid'];
let get: GitSite['get'];
let deployNow: GitSite['deployNow'];
let REPO: string;
/** The release the app's files from before its first deploy become. */
const INITIAL = '19700101000000000-initial';

beforeAll(async () => {
  site = await startGitSite('gitdeploy');
  ({ sb, panel, ofApp, wsid, get, deployNow } = site);
  REPO = site.repo.url;
}, 300_000);

afterAll(async () => {
  await site?.close();
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
    // Said beforehand: the app's files are kept as a release by the first deploy.
    const before = await panel.api('GET', ofApp('gitdeploy/releases'));
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({
      current: null,
      releases: [],
      kept_as: INITIAL,
    });
    expect(before.json().existing_files).toBeGreaterThan(0);
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
    await site.repo.push('main', { 'public/index.html': 'version 2\n' }, 'v2');
    await sb.execOk(['rm', '-f', '/tmp/stop', '/tmp/answers']);
    // Each answer the loop gets is a line of /tmp/answers: v1, v2, or bad.
    const loop = sb.exec(
      [
        'bash',
        '-c',
        'ok=0; bad=0; while [ ! -e /tmp/stop ]; do b=$(curl -s -m 5 -H "Host: site.test" http://127.0.0.1/); case "$b" in "version 1") ok=$((ok+1)); echo v1;; "version 2") ok=$((ok+1)); echo v2;; *) bad=$((bad+1)); echo bad;; esac >> /tmp/answers; done; echo "$ok $bad"',
      ],
      { timeoutMs: 300_000 },
    );
    const answers = async (what: string) =>
      Number((await sb.exec(['grep', '-c', '-x', what, '/tmp/answers'])).stdout.trim() || 0);
    // The deploy starts while the loop is under way, and the loop stops once it has seen the
    // new release served a few times after the switch.
    await waitFor('the loop to get version 1 a few times', async () => (await answers('v1')) >= 5, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const done = await deployNow();
    await waitFor('the loop to get version 2 a few times', async () => (await answers('v2')) >= 5, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await sb.execOk(['touch', '/tmp/stop']);
    const [ok, bad] = (await loop).stdout.trim().split(' ').map(Number);
    expect(done.status, done.message ?? '').toBe('completed');
    expect(ok).toBeGreaterThan(10);
    expect(bad).toBe(0);
    expect((await get()).body).toBe('version 2');
  });

  it('rolls back a release whose health check fails', async () => {
    await site.repo.push(
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

  it('rolls back to a kept release the user picks, the files from before git included', async () => {
    const state = (await panel.api('GET', ofApp('gitdeploy/releases'))).json() as {
      current: string;
      releases: string[];
      existing_files: number;
    };
    expect(state.releases).toContain(INITIAL);
    expect(state.releases).toContain(state.current);
    expect(state.existing_files).toBe(0);
    const old = await panel.api('POST', ofApp('gitdeploy/rollback'), { release: INITIAL });
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toMatchObject({ status: 'completed', release: INITIAL });
    expect((await get()).body).toBe('before git');
    const unknown = await panel.api('POST', ofApp('gitdeploy/rollback'), {
      release: '20990101000000000-initial',
    });
    expect(unknown.statusCode).toBeGreaterThanOrEqual(400);
    expect((await get()).body).toBe('before git');
    const again = await panel.api('POST', ofApp('gitdeploy/rollback'), { release: state.current });
    expect(again.statusCode, again.body).toBe(200);
    expect((await get()).body).not.toBe('before git');
  });

  it('rolls back to the release before, and a removed configuration leaves the site serving', async () => {
    const back = await panel.api('POST', ofApp('gitdeploy/rollback'));
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'completed' });
    expect((await get()).body).toBe('version 1');
    const removed = await panel.api('DELETE', ofApp('gitdeploy'));
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await panel.api('GET', wsid('gitdeploy'))).statusCode).toBe(404);
    expect((await get()).body).toBe('version 1');
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
