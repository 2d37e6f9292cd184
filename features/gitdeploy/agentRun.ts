/**
 * Running programs as an app's user for a deploy: argv only, its own HOME, a bounded output and
 * a time-out that kills the whole process group (a deployment script's children included).
 */
import { spawn } from 'node:child_process';
import { run } from '../../agent/lib/exec';
import { ensureUserLimits } from '../../agent/lib/limits';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, isRegularUser, lookupUser } from '../../agent/lib/users';
import { limitedArgv } from '../webapps/api';

/** The output a deploy keeps (its end), and the lines it reports as progress. */
export const OUTPUT_LIMIT = 64 * 1024;
const PROGRESS_LINES = 200;

/** Paths that go into GIT_SSH_COMMAND, which git hands to a shell: nothing a shell reads. */
const SAFE_PATH = /^\/[A-Za-z0-9_./-]+$/;

export async function appUser(name: string): Promise<PasswdEntry> {
  const user = await lookupUser(name);
  if (!user || !isRegularUser(user))
    throw opFieldError('sys_user', `No system user ${name} on this server`);
  if (!SAFE_PATH.test(user.home)) throw new OpError('failed', `Unusual home folder ${user.home}`);
  return user;
}

/** Where a deploy keeps its files, all in the user's home and derived from allowlisted names. */
export function deployPaths(user: PasswdEntry, app: string) {
  return {
    /** The app's folder: nginx's root; after the first deploy, a symlink to a release. */
    appDir: `${user.home}/apps/${app}`,
    /** `.` first: no app name starts with one, so no app's folder is ever taken for this. */
    releases: `${user.home}/apps/.releases/${app}`,
    knownHosts: `${user.home}/.ssh/stackdeck-git-${app}.known_hosts`,
    key: `${user.home}/.ssh/id_ed25519`,
  };
}

/**
 * git's environment. GIT_SSH_COMMAND is parsed by a shell inside git, so it is built only from
 * the key's and known_hosts' paths (SAFE_PATH) and constants: the pinned host key alone is
 * trusted (StrictHostKeyChecking=yes), no prompt can hang the deploy (BatchMode).
 */
export function gitEnv(user: PasswdEntry, app: string): Record<string, string> {
  const { key, knownHosts } = deployPaths(user, app);
  if (!SAFE_PATH.test(key) || !SAFE_PATH.test(knownHosts))
    throw new OpError('failed', 'Unusual key path');
  return {
    HOME: user.home,
    USER: user.name,
    LOGNAME: user.name,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: `ssh -i ${key} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes -o BatchMode=yes -o ConnectTimeout=20`,
  };
}

/** A short program as the user (argv only); its result. */
export const asUser = (
  user: PasswdEntry,
  file: string,
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
) =>
  run(file, args, {
    uid: user.uid,
    gid: user.gid,
    env: { HOME: user.home, PATH: '/usr/bin:/bin', ...options.env },
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    timeoutMs: options.timeoutMs ?? 60_000,
  });

export const said = (res: { stdout: string; stderr: string }) =>
  `${res.stderr}${res.stdout}`.trim().split('\n').slice(-3).join(' ');

/** What git's failure was about: a refused host key first (ssh's banner would bury it). */
export function gitFailure(output: string): string {
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/.test(output))
    return "Host key verification failed: the git server's key is not the pinned one (configure the repository again if the server's key really changed)";
  return output.trim().split('\n').slice(-3).join(' ');
}

/** As asUser, and a failure is the op's error with the program's words. */
export async function asUserOk(
  user: PasswdEntry,
  file: string,
  args: readonly string[],
  options: Parameters<typeof asUser>[3] = {},
) {
  const res = await asUser(user, file, args, options);
  if (res.code !== 0) throw new OpError('failed', `${file} failed: ${said(res)}`);
  return res;
}

export interface Streamed {
  code: number;
  /** The output's end (OUTPUT_LIMIT). */
  output: string;
  timedOut: boolean;
}

/**
 * A long program as the user (a clone, the deployment script), its own process group so a
 * time-out ends everything it started; each output line goes to `onLine` (the task's events,
 * the first PROGRESS_LINES of them), the output's end is kept. It runs through the limits
 * wrapper: the user's processes and memory (features/webapps/limits.ts), at nice 10.
 */
export async function streamAsUser(
  user: PasswdEntry,
  file: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
  onLine: (line: string) => void,
): Promise<Streamed> {
  await ensureUserLimits(user.name);
  const [program, argv] = limitedArgv(file, args);
  return new Promise((resolve, reject) => {
    const child = spawn(program, argv, {
      uid: user.uid,
      gid: user.gid,
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let pending = '';
    let lines = 0;
    let timedOut = false;
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-OUTPUT_LIMIT);
      pending += text;
      const parts = pending.split(/\r?\n|\r/);
      pending = parts.pop() ?? '';
      for (const line of parts)
        if (line.trim() && lines++ < PROGRESS_LINES) onLine(line.slice(0, 500));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5000).unref();
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new OpError('failed', `${file} could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (pending.trim() && lines++ < PROGRESS_LINES) onLine(pending.slice(0, 500));
      resolve({ code: code ?? -1, output, timedOut });
    });
  });
}
