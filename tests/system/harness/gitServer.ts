import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import type { Sandbox } from '../../../scripts/sandbox/index';
import { installedSandbox, startPanel } from './panel';
import { pageOf } from './curl';

/**
 * A git server inside a sandbox, for git deployment's system test and bench: a `git` user whose
 * shell is git-shell, a bare repository /srv/git/site.git whose only key is the app user's
 * deployment key (`restrict`), reached over the sandbox's own sshd on 127.0.0.1, and a work
 * copy (/home/git/work) that commits and pushes as that user.
 */
export interface GitServer {
  /** The clone address, over SSH. */
  url: string;
  /** The bare repository's path inside the sandbox. */
  bare: string;
  /** Commits files (path: content) to a branch of the work copy and pushes it; the commit id. */
  push(branch: string, files: Record<string, string>, message: string): Promise<string>;
}

const BARE = '/srv/git/site.git';
const WORK = '/home/git/work';
/** The app's folder: a link to the current release once deployed. */
export const SITE = '/home/alice/apps/site';
const asGit = (argv: string[]) => ['runuser', '-u', 'git', '--', ...argv];

/** Sets the server up for `publicKey` and pushes `first` to main as its first commit. */
export async function startGitServer(
  sb: Sandbox,
  publicKey: string,
  first: Record<string, string>,
): Promise<GitServer> {
  await sb.execOk(['useradd', '-m', '-s', '/usr/bin/git-shell', 'git']);
  await sb.execOk(['mkdir', '-p', '-m', '0700', '/home/git/.ssh', '/srv/git']);
  await sb.execOk(['tee', '/home/git/.ssh/authorized_keys'], {
    input: `restrict ${publicKey.trim()}\n`,
  });
  await sb.execOk(['chown', '-R', 'git:git', '/home/git/.ssh', '/srv/git']);
  await sb.execOk(asGit(['git', 'init', '-q', '--bare', '-b', 'main', BARE]));
  await sb.execOk(asGit(['git', 'init', '-q', '-b', 'main', WORK]));
  // sshd is one of every sandbox's services; the first clone must not race its start.
  await sb.execOk([
    'bash',
    '-c',
    "for i in $(seq 100); do ss -Hltn 'sport = :22' | grep -q . && exit 0; sleep 0.1; done; exit 1",
  ]);

  const git = (args: string[]) =>
    sb.execOk(asGit(['env', 'HOME=/home/git', 'git', '-C', WORK, ...args]));
  const push = async (branch: string, files: Record<string, string>, message: string) => {
    await git(['checkout', '-q', '-B', branch]);
    for (const [file, content] of Object.entries(files)) {
      const dir = file.includes('/') ? `${WORK}/${file.replace(/\/[^/]*$/, '')}` : WORK;
      await sb.execOk(asGit(['mkdir', '-p', dir]));
      await sb.execOk(asGit(['tee', `${WORK}/${file}`]), { input: content });
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
    await git(['push', '-q', '-f', BARE, `${branch}:${branch}`]);
    return (await git(['rev-parse', 'HEAD'])).stdout.trim();
  };
  await push('main', first, 'first');
  return { url: `git@127.0.0.1:${BARE}`, bare: BARE, push };
}

export type GitSite = Awaited<ReturnType<typeof startGitSite>>;

export type Deploy = {
  id: number;
  status: string;
  commit: string | null;
  message: string | null;
  output: string;
  task_id: number | null;
};

/**
 * A sandbox server with nginx and PHP-FPM, its app `site` (site.test) of the system user alice
 * serving "before git", and a git server whose main holds public/index.html "version 1"; with
 * what the git deployment tests ask of it.
 */
export async function startGitSite(name: string) {
  const panel = await startPanel();
  // The git server listens on the sandbox's loopback: allowed as an administrator would allow it.
  panel.t.app.config.outboundAllow = ['127.0.0.1'];
  const { sb, server } = await installedSandbox(panel, name, ['nginx', 'php8.2-fpm']);
  const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
  const ok = async (res: LightMyRequestResponse, status: number) => {
    if (res.statusCode !== status) throw new Error(`${res.statusCode}: ${res.body}`);
    return res.json() as Record<string, unknown>;
  };
  const user = await ok(
    await panel.api('POST', path('sysusers'), {
      user_name: 'alice',
      password: 'a long system password 1',
    }),
    201,
  );
  const app = await ok(
    await panel.api('POST', path('webstacks'), {
      name: 'site',
      domains: ['site.test'],
      sys_user: 'alice',
    }),
    201,
  );
  const appId = app.id as number;
  // The deployment key is the app user's (sysusers ?rsa=create), the git server's only key.
  const key = await ok(
    await panel.api('GET', `${path(`sysusers/${String(user.id)}`)}?rsa=create`),
    200,
  );
  const repo = await startGitServer(sb, key.public_key as string, {
    'public/index.html': 'version 1\n',
  });
  // What the site served before git: the first deploy turns this folder into a release.
  await sb.execOk(['rm', '-f', `${SITE}/public/index.php`]);
  await sb.execOk(['runuser', '-u', 'alice', '--', 'tee', `${SITE}/public/index.html`], {
    input: 'before git\n',
  });

  const ofApp = (p: string) => path(`${p}/webstacks/${appId}`);
  const deploys = async () =>
    (await ok(await panel.api('GET', ofApp('gitdeploy/deploys')), 200)).data as Deploy[];
  const settled = async (id: number): Promise<Deploy> => {
    for (let i = 0; i < 600; i++) {
      const row = (await deploys()).find((d) => d.id === id)!;
      if (row.status !== 'running') return row;
      await sleep(250);
    }
    throw new Error(`deploy ${id} still running`);
  };
  return {
    panel,
    sb,
    server,
    appId,
    repo,
    path,
    ofApp,
    wsid: (p: string) => `${path(p)}?wsid=${appId}`,
    deploys,
    settled,
    /** Deploys now (the UI's button) and waits for the end. */
    deployNow: async () =>
      settled((await ok(await panel.api('POST', ofApp('gitdeploy/deploys')), 202)).id as number),
    /** The site's answer through nginx, as a visitor on the server sees it. */
    get: (url = '/') => pageOf(sb, 'site.test', url),
    async close() {
      await sb.stop();
      await panel.close();
    },
  };
}
