/**
 * Starts restic: an argv array (never a shell), the repository, its password and the storage's
 * credentials in the child's environment only (never argv, never a file: `ps` and the disk show
 * none of them), `--json` output and the agent's own cache folder. A gentle run goes through
 * `nice -n 19 ionice -c2 -n7` (and two Go threads), so a backup never starves the sites it saves.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { opFieldError } from '../../agent/lib/opError';
import { checked } from './agentResticInput';
import { splitLines } from './agentResticProgress';

export { DEFAULT_CACHE_DIR, STORAGE_ENV, sftpSchema, targetSchema } from './schemas';
import {
  DEFAULT_CACHE_DIR,
  STORAGE_ENV,
  repositorySchema,
  sftpSchema,
  type targetSchema,
} from './schemas';

/** The user and host of an SFTP repository, neither one starting like an ssh option. */
export const SFTP_REPOSITORY =
  /^sftp:(?:([A-Za-z0-9_][A-Za-z0-9._-]{0,31})@)?([A-Za-z0-9][A-Za-z0-9.-]{0,252}):\//;

export type ResticTarget = z.infer<typeof targetSchema> & {
  /**
   * The program and its first arguments, `['restic']` unless given: never from the panel (not in
   * the schema); tests run restic through `setpriv` to see a root that cannot read a file.
   */
  program?: readonly string[];
};

export interface ResticLimits {
  /** `nice -n 19 ionice -c2 -n7` and GOMAXPROCS=2. */
  gentle?: boolean;
  /** `--limit-upload`, KiB/s. */
  upload_kib?: number;
  /** `--limit-download`, KiB/s. */
  download_kib?: number;
}

export interface ResticOptions {
  /** `--json` (on unless false: `dump` writes the file itself on stdout). */
  json?: boolean;
  cwd?: string;
  limits?: ResticLimits;
  /** Keep stdin open for the caller to write (`backup --stdin`). */
  stdin?: boolean;
  /** Each line restic writes on stdout (instead of keeping it). */
  onLine?: (line: string) => void;
  /** Each line restic writes on stderr (its `--json` error lines), as well as the kept tail. */
  onErrorLine?: (line: string) => void;
  /** Hand stdout over as a stream (`dump`): neither kept nor split. */
  rawStdout?: boolean;
  /** Ends the run as stopRestic does: no snapshot, no lock left. */
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
}

export interface ResticExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What restic wrote on stdout, when neither onLine nor rawStdout took it. */
  stdout: string;
  /** Its stderr, the last 16 kB, with the password blanked in the unlikely case it appears. */
  stderr: string;
}

export interface ResticRun {
  child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  exit: Promise<ResticExit>;
}

/** The child's whole environment: nothing of the agent's own leaks in. */
function environment(target: ResticTarget, limits: ResticLimits | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LANG: 'C.UTF-8',
    // ssh (sftp: targets) reads its known_hosts and keys from HOME.
    HOME: process.env.HOME ?? '/root',
    RESTIC_REPOSITORY: target.repository,
    RESTIC_PASSWORD: target.password,
    // Status lines twice a second are plenty (the reader reports once a second); 60 is the default.
    RESTIC_PROGRESS_FPS: '2',
  };
  for (const name of STORAGE_ENV) if (target.env?.[name]) env[name] = target.env[name];
  if (limits?.gentle) env.GOMAXPROCS = '2';
  return env;
}

const kib = (n: number | undefined, field: string) =>
  n === undefined ? undefined : String(checked(z.number().int().min(1), n, field));

/** `-o sftp.command=ssh [-p P] [-i K] ... [-l user] host -s sftp`, from checked parts only. */
function sftpCommand(target: ResticTarget): string[] {
  if (!target.sftp) return [];
  const s = checked(sftpSchema, target.sftp, 'sftp');
  const m = SFTP_REPOSITORY.exec(target.repository);
  if (!m) throw opFieldError('repository', 'An SFTP repository is sftp:user@host:/path');
  const ssh = [
    'ssh',
    ...(s.port ? ['-p', String(s.port)] : []),
    ...(s.identity_file ? ['-i', s.identity_file, '-o', 'IdentitiesOnly=yes'] : []),
    // The pinned keys only: not also a key the machine's own known_hosts holds for the host.
    ...(s.known_hosts_file
      ? ['-o', `UserKnownHostsFile=${s.known_hosts_file}`, '-o', 'GlobalKnownHostsFile=/dev/null']
      : []),
    ...['-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes'],
    ...(s.log_file ? ['-E', s.log_file] : []),
    ...(m[1] ? ['-l', m[1]] : []),
    m[2]!,
    ...['-s', 'sftp'],
  ];
  return ['-o', `sftp.command=${ssh.join(' ')}`];
}

/** restic's argv after the subcommand: the global flags every run gets. */
function globals(target: ResticTarget, options: ResticOptions): string[] {
  const up = kib(options.limits?.upload_kib, 'upload_kib');
  const down = kib(options.limits?.download_kib, 'download_kib');
  return [
    `--cache-dir=${target.cache_dir ?? DEFAULT_CACHE_DIR}`,
    ...(options.json === false ? [] : ['--json']),
    ...(target.cacert ? [`--cacert=${target.cacert}`] : []),
    ...sftpCommand(target),
    ...(up ? [`--limit-upload=${up}`] : []),
    ...(down ? [`--limit-download=${down}`] : []),
  ];
}

/** Starts `restic <command> <globals> <args>`; `exit` resolves when it has ended (never rejects). */
export function startRestic(
  target: ResticTarget,
  command: string,
  args: readonly string[],
  options: ResticOptions = {},
): ResticRun {
  checked(repositorySchema, target.repository, 'repository');
  const [program, ...lead] = target.program ?? ['restic'];
  const argv = [...lead, command, ...globals(target, options), ...args];
  const [file, fileArgs] = options.limits?.gentle
    ? ['nice', ['-n', '19', 'ionice', '-c2', '-n7', program!, ...argv]]
    : [program!, argv];
  // stdout and stderr are pipes (stdio below); the type only loses that to the conditional stdin.
  const child = spawn(file, fileArgs, {
    cwd: options.cwd,
    env: environment(target, options.limits),
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  }) as ResticRun['child'];
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  // Once restic has gone, a write to its stdin fails with EPIPE: its exit code says why.
  child.stdin?.on('error', () => undefined);
  let stdout = '';
  let stderr = '';
  const sshSaid = sshLogSince(target.sftp?.log_file);
  if (options.onLine) splitLines(child.stdout, options.onLine);
  else if (!options.rawStdout) child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  if (options.onErrorLine) splitLines(child.stderr, options.onErrorLine);
  child.stderr.on(
    'data',
    (d: Buffer | string) => (stderr = (stderr + d.toString()).slice(-16_000)),
  );
  const abort = () => stopRestic(child);
  if (options.signal?.aborted) abort();
  else options.signal?.addEventListener('abort', abort, { once: true });
  const exit = new Promise<ResticExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null, extra = '') => {
      options.signal?.removeEventListener('abort', abort);
      const said = (stderr + extra + sshSaid()).split(target.password).join('***');
      resolve({ code, signal, stdout, stderr: said });
    };
    child.on('error', (error) => done(127, null, `\n${error.message}`));
    child.on('close', (code, signal) => done(code, signal));
  });
  return { child, exit };
}

/**
 * What ssh logged (`-E`) during this run, read when restic has ended. restic 0.14 relays ssh's
 * stderr from a goroutine it does not wait for, so "Host key verification failed" or "Permission
 * denied" was sometimes lost and a refusal read as "cannot be reached"; ssh writes its log before
 * it exits, and restic ends only after ssh has gone.
 */
function sshLogSince(file: string | undefined): () => string {
  if (!file) return () => '';
  const size = (): number => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  const from = size();
  return () => {
    try {
      const said = readFileSync(file).subarray(from).toString().trim();
      return said ? `\nssh: ${said.slice(-4000)}` : '';
    } catch {
      return '';
    }
  };
}

/**
 * Stops a restic run without a snapshot and without a stale lock: SIGINT, which 0.14 handles
 * (removes its lock, exits 130, saves nothing). Not SIGTERM: 0.14 does not catch it and dies
 * leaving its lock behind (verified here; the handler arrived in a later release). SIGKILL if it
 * is still there 10 s later.
 */
export function stopRestic(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  child.once('close', () => clearTimeout(killer));
}

/** Runs restic to its end and returns how it ended (the caller classifies a failure). */
export function restic(
  target: ResticTarget,
  command: string,
  args: readonly string[],
  options: Omit<ResticOptions, 'stdin' | 'rawStdout'> = {},
): Promise<ResticExit> {
  return startRestic(target, command, args, options).exit;
}
