import type { z } from 'zod';
import type { PasswdEntry } from '../../agent/lib/users';
import { OpError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { SCRIPT_TIMEOUT_MS, repoParts } from './names';
import { ops } from './resource';
import { checkedAddresses, gitHostOptions } from './agentHost';
import {
  appUser,
  asUser,
  asUserOk,
  deployPaths,
  gitEnv,
  said,
  gitFailure,
  streamAsUser,
  OUTPUT_LIMIT,
} from './agentRun';
import {
  INITIAL_RELEASE,
  currentRelease,
  existingFiles,
  healthCheck,
  listReleases,
  pruneReleases,
  removeRelease,
  stamp,
  switchTo,
} from './agentRelease';

type Progress = (event: string, code: number) => void;

/**
 * The pinned host keys, written by the user into its own known_hosts file for this app: the only
 * keys ssh accepts for the repository (an https repository needs none).
 */
async function pinHostKeys(user: PasswdEntry, app: string, lines: string[]): Promise<void> {
  const { knownHosts } = deployPaths(user, app);
  await asUserOk(user, 'mkdir', ['-p', '-m', '0700', '--', `${user.home}/.ssh`]);
  await asUserOk(user, 'tee', ['--', knownHosts], { input: lines.map((l) => `${l}\n`).join('') });
}

const result = (fields: {
  status: 'completed' | 'failed';
  commit?: string | null;
  release?: string | null;
  output: string;
  message?: string | null;
}) => ({
  commit: null,
  release: null,
  message: null,
  ...fields,
  output: fields.output.slice(-OUTPUT_LIMIT),
});

/** After a switch: the health check, and on failure the switch back to `previous`. */
async function checkOrSwitchBack(
  user: PasswdEntry,
  app: string,
  previous: string | null,
  domain: string,
  path: string,
): Promise<string | null> {
  const problem = await healthCheck(domain, path);
  if (problem && previous) await switchTo(user, app, previous);
  return problem;
}

async function deploy(
  args: z.output<(typeof ops)['gitdeploy.deploy']['args']>,
  progress: Progress,
) {
  const { sys_user, app, repository, branch, script } = args;
  const pinned = await gitHostOptions(repoParts(repository)!, args.outbound_allow);
  const user = await appUser(sys_user);
  const { releases } = deployPaths(user, app);
  await pinHostKeys(user, app, args.known_hosts);
  await asUserOk(user, 'mkdir', ['-p', '-m', '0750', '--', `${user.home}/apps/.releases`]);
  await asUserOk(user, 'mkdir', ['-p', '-m', '0750', '--', releases]);
  const env = gitEnv(user, app);
  let output = '';
  const log = (line: string) => progress(line, 4);

  const building = `${releases}/${stamp()}-building`;
  progress(`Cloning ${branch} of ${repository}`, 2);
  // Shallow, one branch, no tags; `--` so the URL can never be read as an option.
  const clone = await streamAsUser(
    user,
    'git',
    [
      ...pinned,
      'clone',
      '--depth',
      '1',
      '--branch',
      branch,
      '--single-branch',
      '--no-tags',
      '--',
      repository,
      building,
    ],
    { cwd: user.home, env, timeoutMs: 600_000 },
    log,
  );
  output += clone.output;
  if (clone.code !== 0) {
    await asUser(user, 'rm', ['-rf', '--', building]);
    return result({
      status: 'failed',
      output,
      message: `git clone failed: ${gitFailure(clone.output)}`,
    });
  }
  const commit = (
    await asUserOk(user, 'git', ['-C', building, 'rev-parse', 'HEAD'], { env })
  ).stdout.trim();
  const release = `${building.slice(releases.length + 1, -'-building'.length)}-${commit.slice(0, 12)}`;
  await asUserOk(user, 'mv', ['-T', '--', building, `${releases}/${release}`]);
  await asUserOk(user, 'chmod', ['0750', '--', `${releases}/${release}`]);
  progress(`Cloned ${commit.slice(0, 12)} into ${release}`, 3);

  if (script.trim()) {
    progress('Running the deployment script', 4);
    // The stored script is one argv element of bash -e: never pasted into a command line.
    const ran = await streamAsUser(
      user,
      'bash',
      ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script],
      {
        cwd: `${releases}/${release}`,
        env: {
          ...env,
          STACKDECK_RELEASE: `${releases}/${release}`,
          STACKDECK_BRANCH: branch,
          STACKDECK_COMMIT: commit,
        },
        timeoutMs: SCRIPT_TIMEOUT_MS,
      },
      log,
    );
    output += ran.output;
    if (ran.code !== 0) {
      await removeRelease(user, app, release);
      const why = ran.timedOut ? 'was stopped after its time-out' : `failed (exit ${ran.code})`;
      return result({ status: 'failed', commit, output, message: `The deployment script ${why}` });
    }
  }

  const previous = await currentRelease(user, app);
  progress(`Switching the site to ${release}`, 7);
  await switchTo(user, app, release);
  // The first switch made the old folder a release: back to it when the new one is unhealthy.
  const before =
    previous ?? (await listReleases(user, app)).find((r) => r.endsWith('-initial')) ?? null;
  progress(`Checking ${args.domain}${args.health_path}`, 8);
  const problem = await checkOrSwitchBack(user, app, before, args.domain, args.health_path);
  if (problem) {
    await removeRelease(user, app, release);
    return result({
      status: 'failed',
      commit,
      output,
      message: `Health check failed, switched back to ${before ?? 'nothing'}: ${problem}`,
    });
  }
  const pruned = await pruneReleases(user, app);
  if (pruned.length) progress(`Removed ${pruned.length} old release(s)`, 9);
  return result({ status: 'completed', commit, release, output });
}

/** Git deploys: one deploy or rollback of an app at a time. */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'gitdeploy.hostkey'({ sys_user, host, port, outbound_allow }) {
      await checkedAddresses(host, outbound_allow);
      const user = await appUser(sys_user);
      const scan = await asUser(
        user,
        'ssh-keyscan',
        ['-T', '10', '-p', String(port), '-t', 'ed25519,ecdsa,rsa', '--', host],
        { timeoutMs: 30_000 },
      );
      const lines = scan.stdout
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => l.replace(/\s+/g, ' '))
        .slice(0, 10);
      if (!lines.length)
        throw new OpError(
          'failed',
          `No host key from ${host}:${port}: ${said(scan) || 'no answer'}`,
        );
      const fp = await asUserOk(user, 'ssh-keygen', ['-l', '-E', 'sha256', '-f', '-'], {
        input: lines.join('\n') + '\n',
      });
      const fingerprints = fp.stdout.split('\n').filter(Boolean);
      return { lines, fingerprints };
    },
    async 'gitdeploy.branches'({ sys_user, app, repository, known_hosts, outbound_allow }) {
      const parts = repoParts(repository)!;
      const pinned = await gitHostOptions(parts, outbound_allow);
      const user = await appUser(sys_user);
      if (parts.transport === 'ssh') await pinHostKeys(user, app, known_hosts);
      const res = await asUser(user, 'git', [...pinned, 'ls-remote', '--heads', '--', repository], {
        env: gitEnv(user, app),
        timeoutMs: 60_000,
      });
      if (res.code !== 0)
        throw new OpError('failed', `git ls-remote failed: ${gitFailure(res.stderr + res.stdout)}`);
      const branches = res.stdout
        .split('\n')
        .map((l) => /^([0-9a-f]{40,64})\trefs\/heads\/(.+)$/.exec(l))
        .flatMap((m) => (m ? [{ name: m[2]!, commit: m[1]! }] : []));
      return { branches };
    },
    async 'gitdeploy.deploy'(args, ctx) {
      return deploy(args, (e, c) => ctx.progress(e, c));
    },
    async 'gitdeploy.rollback'({ sys_user, app, domain, health_path, release }) {
      const user = await appUser(sys_user);
      const current = await currentRelease(user, app);
      const all = await listReleases(user, app);
      const index = current ? all.indexOf(current) : -1;
      const target = release ?? (index > 0 ? all[index - 1]! : null);
      if (!current || !target) throw new OpError('failed', 'No earlier release to roll back to');
      if (target === current) throw new OpError('refused', `${target} is served already`);
      if (!all.includes(target))
        throw new OpError('refused', `No release ${target} is kept on the server`);
      await switchTo(user, app, target);
      const problem = await checkOrSwitchBack(user, app, current, domain, health_path);
      if (problem)
        return result({
          status: 'failed',
          release: target,
          output: '',
          message: `Health check failed, kept ${current}: ${problem}`,
        });
      return result({ status: 'completed', release: target, output: '' });
    },
    async 'gitdeploy.releases'({ sys_user, app }) {
      const user = await appUser(sys_user);
      const current = await currentRelease(user, app);
      const files = current ? 0 : await existingFiles(user, app);
      return {
        current,
        releases: await listReleases(user, app),
        existing_files: files,
        kept_as: files ? INITIAL_RELEASE : null,
      };
    },
  },
  locks: {
    'gitdeploy.deploy': ({ sys_user, app }) => [`gitdeploy:${sys_user}:${app}`],
    'gitdeploy.rollback': ({ sys_user, app }) => [`gitdeploy:${sys_user}:${app}`],
    'gitdeploy.branches': ({ sys_user, app }) => [`gitdeploy-hosts:${sys_user}:${app}`],
  },
});
