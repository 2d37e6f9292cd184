/**
 * restic run by the panel on its own storage (the REST storage is append-only for agents, so
 * the panel forgets, prunes, checks and dumps there itself): `restic -r <local path>`, argv
 * only (never a shell), the repository's password in the child's environment only. One restic
 * at a time per repository in this panel (a lane); a stale lock (a killed run) is cleared with
 * plain `restic unlock`, never `--remove-all`.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { STORAGE_ENV, type retentionSchema, snapshotSchema, tagSchema } from './schemas';

export interface PanelRepo {
  /**
   * `app.services.backupRepositories.localPath(uuid)`; for the recovery key also an S3
   * repository's address (`s3:https://...`), with its keys in `env`.
   */
  path: string;
  password: string;
  /** The storage's credentials (AWS_*), for an S3 repository. */
  env?: Partial<Record<(typeof STORAGE_ENV)[number], string>>;
  /**
   * An SFTP repository (`sftp:user@host:/path`, for the recovery key): ssh's port and the files
   * of the account's key and the pinned host keys (serverTargetFiles.ts writes and removes them).
   */
  sftp?: { port?: number; identity_file: string; known_hosts_file: string };
  /** An S3 storage's own CA, as a file (serverTargetFiles.ts writes and removes it). */
  cacert?: string;
}

/** The user and host of an SFTP repository, neither one starting like an ssh option. */
const SFTP_AT = /^sftp:([A-Za-z0-9_][A-Za-z0-9._-]{0,31})@([A-Za-z0-9][A-Za-z0-9.-]{0,252}):\//;
/** A file in restic's `sftp.command` (restic splits it on spaces: none here). */
const SSH_FILE = /^\/[A-Za-z0-9._/-]+$/;

/** `-o sftp.command=ssh ...`: the key and pinned host keys only, never a prompt. */
function sftpOption(repo: PanelRepo): string[] {
  if (!repo.sftp) return [];
  const { port, identity_file, known_hosts_file } = repo.sftp;
  const m = SFTP_AT.exec(repo.path);
  if (!m || !SSH_FILE.test(identity_file) || !SSH_FILE.test(known_hosts_file))
    throw new Error('An SFTP repository is sftp:user@host:/path, with its key files');
  const ssh = [
    'ssh',
    ...(port ? ['-p', String(port)] : []),
    ...['-i', identity_file, '-o', 'IdentitiesOnly=yes'],
    ...['-o', `UserKnownHostsFile=${known_hosts_file}`, '-o', 'GlobalKnownHostsFile=/dev/null'],
    ...['-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes'],
    ...['-l', m[1]!, m[2]!, '-s', 'sftp'],
  ];
  return ['-o', `sftp.command=${ssh.join(' ')}`];
}

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

const env = (repo: PanelRepo): NodeJS.ProcessEnv => ({
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
  HOME: process.env.HOME ?? '/tmp',
  RESTIC_PASSWORD: repo.password,
  ...Object.fromEntries(STORAGE_ENV.filter((k) => repo.env?.[k]).map((k) => [k, repo.env![k]])),
});

/** restic's argv before the subcommand's own: the repository, no cache (the files are local). */
const lead = (repo: PanelRepo) => [
  '-r',
  repo.path,
  '--no-cache',
  ...(repo.cacert ? [`--cacert=${repo.cacert}`] : []),
  ...sftpOption(repo),
];

function spawnRestic(repo: PanelRepo, args: readonly string[]) {
  return spawn('restic', [...lead(repo), ...args], {
    env: env(repo),
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcessByStdio<null, Readable, Readable>;
}

function run(repo: PanelRepo, args: readonly string[]): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawnRestic(repo, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-16_000)));
    child.on('error', (e) => resolve({ code: 127, stdout, stderr: `${stderr}\n${e.message}` }));
    child.on('close', (code) =>
      resolve({ code, stdout, stderr: stderr.split(repo.password).join('***') }),
    );
  });
}

const lanes = new Map<string, Promise<unknown>>();
/** One restic at a time per repository in this panel. */
function inLane<T>(repo: PanelRepo, work: () => Promise<T>): Promise<T> {
  const before = lanes.get(repo.path) ?? Promise.resolve();
  const next = before.then(work, work);
  const settled = next.catch(() => undefined);
  lanes.set(repo.path, settled);
  void settled.then(() => {
    if (lanes.get(repo.path) === settled) lanes.delete(repo.path);
  });
  return next;
}

/** The last meaningful line restic wrote: what a failure is said with. */
export function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('{'));
  return (lines.at(-1) ?? '').slice(0, 500);
}

export class PanelResticError extends Error {}

const locked = (e: Ended) =>
  e.code !== 0 && /unable to create lock|repository is already locked/i.test(e.stderr);

/** Runs an exclusive command; a stale lock is cleared once with plain `unlock` and it runs again. */
async function exclusive(repo: PanelRepo, args: readonly string[]): Promise<Ended> {
  const first = await run(repo, args);
  if (!locked(first)) return first;
  await run(repo, ['unlock']);
  return run(repo, args);
}

function ok(ended: Ended, what: string): Ended {
  if (ended.code !== 0)
    throw new PanelResticError(
      `${what} failed: ${lastWords(ended.stderr) || `exit ${ended.code}`}`,
    );
  return ended;
}

function json<T>(stdout: string): T | null {
  const start = stdout.search(/^[[{]/m);
  if (start < 0) return null;
  try {
    return JSON.parse(stdout.slice(start)) as T;
  } catch {
    return null;
  }
}

type Keep = z.output<typeof retentionSchema>;

/**
 * `forget --group-by host,tags --tag policy:<id> --keep-...` (no prune: weekly): answers the
 * snapshots it removed. Called after an ok run only, so failed runs (no snapshot) never count.
 */
export function forgetPolicy(repo: PanelRepo, policyId: number, keep: Keep): Promise<string[]> {
  const tag = tagSchema.parse(`policy:${policyId}`);
  const rules = Object.entries(keep)
    .filter(([, n]) => n > 0)
    .flatMap(([rule, n]) => [`--${rule.replace('_', '-')}`, String(z.number().int().parse(n))]);
  if (!rules.includes('--keep-last')) throw new Error('forget keeps at least the last snapshot');
  return inLane(repo, async () => {
    const ended = ok(
      await exclusive(repo, [
        'forget',
        '--json',
        '--group-by',
        'host,tags',
        '--tag',
        tag,
        ...rules,
      ]),
      'Forgetting old backups',
    );
    const groups = json<{ remove?: { id: string }[] | null }[]>(ended.stdout) ?? [];
    return groups.flatMap((g) => (g.remove ?? []).map((s) => s.id));
  });
}

/** `forget <id>...`: the snapshots named (a deleted file, a removed policy). */
export function forgetSnapshots(repo: PanelRepo, ids: readonly string[]): Promise<void> {
  const checked = z.array(snapshotSchema).parse(ids);
  if (!checked.length) return Promise.resolve();
  return inLane(repo, async () => {
    ok(await exclusive(repo, ['forget', '--', ...checked]), 'Deleting the backup');
  });
}

/** `prune`: the data no snapshot uses any more goes. */
export function prune(repo: PanelRepo): Promise<void> {
  return inLane(repo, async () => {
    ok(await exclusive(repo, ['prune']), 'Pruning the storage');
  });
}

/** `check` (with `--read-data-subset=n/t` when asked): damage is `ok: false` with words. */
export function check(
  repo: PanelRepo,
  subset: string | null = null,
): Promise<{ ok: boolean; message: string }> {
  if (subset !== null && !/^[1-9]\d{0,2}\/[1-9]\d{0,2}$/.test(subset))
    throw new Error('a subset is n/t');
  return inLane(repo, async () => {
    const ended = await exclusive(repo, [
      'check',
      ...(subset ? [`--read-data-subset=${subset}`] : []),
    ]);
    if (ended.code === 0) return { ok: true, message: 'No errors were found' };
    const words = lastWords(ended.stderr) || `exit ${ended.code}`;
    return { ok: false, message: `The storage check found a problem: ${words}` };
  });
}

/** The ids of the snapshots of a policy (`--tag policy:<id>`). */
export function policySnapshots(repo: PanelRepo, policyId: number): Promise<string[]> {
  const tag = tagSchema.parse(`policy:${policyId}`);
  return inLane(repo, async () => {
    const ended = ok(await run(repo, ['snapshots', '--json', '--tag', tag]), 'Listing backups');
    return (json<{ id: string }[]>(ended.stdout) ?? []).map((s) => s.id);
  });
}

/**
 * `restic dump`: one file of the snapshot (a database's `<db>.sql`), or with `archive` the whole
 * tree as a tar (an app). Answers restic's stdout as a stream; a failure ends the stream with an
 * error (the caller has sent the headers by then: the download breaks off, never a wrong file).
 */
export function dump(
  repo: PanelRepo,
  snapshot: string,
  file: string,
  options: { archive?: boolean } = {},
): Readable {
  const id = snapshotSchema.parse(snapshot);
  if (!file.startsWith('/') || [...file].some((c) => c.charCodeAt(0) < 32))
    throw new Error('dump names an absolute path');
  const child = spawnRestic(repo, [
    'dump',
    ...(options.archive ? ['--archive', 'tar'] : []),
    '--',
    id,
    file,
  ]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8_000)));
  child.on('close', (code) => {
    if (code !== 0)
      child.stdout.destroy(
        new PanelResticError(`The download failed: ${lastWords(stderr) || `exit ${code}`}`),
      );
  });
  return child.stdout;
}

/** A key's id as `restic key list` prints it. */
const KEY_ID = /^[0-9a-f]{8,64}$/;

/** The id of the key `repo.password` opens the repository with (inside the repository's lane). */
async function currentKey(repo: PanelRepo): Promise<string> {
  const ended = ok(await run(repo, ['key', 'list', '--json']), 'Listing the keys');
  const keys = json<{ current: boolean; id: string }[]>(ended.stdout) ?? [];
  const id = keys.find((k) => k.current)?.id;
  if (!id || !KEY_ID.test(id)) throw new PanelResticError('restic named no current key');
  return id;
}

/**
 * `restic key add`: `password` becomes another key of the repository; answers its id (read back
 * by opening the repository with it). The new password goes on restic's stdin, one line (restic
 * reads it there when stdin is no terminal): never argv, never a file.
 */
export function addKey(repo: PanelRepo, password: string): Promise<string> {
  if (password.length < 16 || [...password].some((c) => c.charCodeAt(0) < 32))
    throw new Error('a key is one line of at least 16 characters');
  return inLane(repo, async () => {
    const ended = await new Promise<Ended>((resolve) => {
      const child = spawn('restic', [...lead(repo), 'key', 'add'], {
        env: env(repo),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stdin.on('error', () => undefined);
      child.stdin.end(`${password}\n`);
      child.stdout.resume();
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8_000)));
      child.on('error', (e) => resolve({ code: 127, stdout: '', stderr: e.message }));
      child.on('close', (code) =>
        resolve({ code, stdout: '', stderr: stderr.split(password).join('***') }),
      );
    });
    ok(ended, 'Adding the recovery key');
    return currentKey({ ...repo, password });
  });
}

/** `restic key remove <id>` (never the key `repo.password` opens it with: restic refuses). */
export function removeKey(repo: PanelRepo, id: string): Promise<void> {
  if (!KEY_ID.test(id)) throw new Error('a key id is hex');
  return inLane(repo, async () => {
    ok(await run(repo, ['key', 'remove', id]), 'Removing the old recovery key');
  });
}
