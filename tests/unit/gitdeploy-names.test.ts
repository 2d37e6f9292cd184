import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { branchProblem, repoParts, repositoryUrl } from '../../features/gitdeploy/names';
import { pushedBranch, verify } from '../../features/gitdeploy/serverHook';

/** git's own verdict on a branch name (where git is installed). */
function gitAccepts(name: string): boolean | null {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status === undefined ? null : false;
  }
}

describe('git deploy names', () => {
  it('accepts the three URL forms, with host and port', () => {
    expect(repoParts('git@github.com:team/site.git')).toEqual({
      transport: 'ssh',
      host: 'github.com',
      port: 22,
    });
    expect(repoParts('git@127.0.0.1:/srv/git/site.git')).toEqual({
      transport: 'ssh',
      host: '127.0.0.1',
      port: 22,
    });
    expect(repoParts('ssh://git@git.example:2222/team/site.git')).toEqual({
      transport: 'ssh',
      host: 'git.example',
      port: 2222,
    });
    expect(repoParts('https://gitlab.com/team/site.git')).toEqual({
      transport: 'https',
      host: 'gitlab.com',
      port: 443,
    });
  });

  it('refuses options, transport helpers, local paths, credentials and odd characters', () => {
    for (const url of [
      '-oProxyCommand=id',
      '--upload-pack=id',
      'ext::sh -c id',
      'fd::17',
      'file:///etc',
      '/srv/git/site.git',
      './site',
      'git@-oProxyCommand=id:repo',
      'git@host:repo .git',
      'git@host:repo\n.git',
      'git@host:$(id).git',
      'git@host:a;b',
      'https://user:secret@host/repo.git',
      'http://host/repo.git',
      'ssh://host:99999/repo.git',
      'git@host:../../etc/passwd',
    ])
      expect(repositoryUrl.safeParse(url).success, url).toBe(false);
  });

  it('agrees with git check-ref-format --branch, and refuses a leading dash', () => {
    const names = [
      'main',
      'release/1.x',
      'feature/a-b_c',
      'a..b',
      'a b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[b',
      'a\\b',
      'a/',
      '/a',
      'a.',
      'a.lock',
      'a/.b',
      'a//b',
      'a@{1}',
      'x/y.lock/z',
    ];
    for (const name of names) {
      const git = gitAccepts(name);
      if (git === null) continue;
      expect(branchProblem(name) === null, name).toBe(git);
    }
    expect(branchProblem('-b')).toMatch(/cannot start with -/);
  });
});

describe('git webhooks', () => {
  const body = Buffer.from('{"ref": "refs/heads/main"}');
  const headers = (h: Record<string, string>) => (name: string) => h[name] ?? null;

  it("checks GitHub's HMAC over the raw bytes", () => {
    const good = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`;
    expect(
      verify(
        'github',
        's3cret',
        headers({
          'x-hub-signature-256': good,
          'x-github-event': 'push',
          'x-github-delivery': 'd',
        }),
        body,
      ),
    ).toEqual({ event: 'push', delivery: 'd', signed: good });
    expect(
      verify(
        'github',
        's3cret',
        headers({ 'x-hub-signature-256': good }),
        Buffer.from('{"ref":"refs/heads/main"}'),
      ),
    ).toBeNull();
    expect(verify('github', 'other', headers({ 'x-hub-signature-256': good }), body)).toBeNull();
    expect(verify('github', 's3cret', headers({}), body)).toBeNull();
  });

  it("checks GitLab's token", () => {
    expect(
      verify(
        'gitlab',
        'tok',
        headers({ 'x-gitlab-token': 'tok', 'x-gitlab-event': 'Push Hook' }),
        body,
      ),
    ).toEqual({ event: 'Push Hook', delivery: null, signed: 'tok' });
    expect(verify('gitlab', 'tok', headers({ 'x-gitlab-token': 'to' }), body)).toBeNull();
  });

  it('takes the branch of a push, never of a tag or a deletion', () => {
    expect(pushedBranch({ ref: 'refs/heads/release/1.x' })).toBe('release/1.x');
    expect(pushedBranch({ ref: 'refs/tags/v1' })).toBeNull();
    expect(pushedBranch({ ref: 'refs/heads/main', deleted: true })).toBeNull();
    expect(pushedBranch({ ref: 'refs/heads/main', after: '0'.repeat(40) })).toBeNull();
    expect(pushedBranch('nope')).toBeNull();
  });
});
