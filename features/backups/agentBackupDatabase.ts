/**
 * Backs up one database: `mariadb-dump` streamed into `restic backup --stdin` as `<db>.sql`,
 * uncompressed (restic deduplicates a plain dump from one run to the next; a gzipped one is new
 * bytes every time). restic 0.14 saves a snapshot of whatever reached its stdin, even when the
 * dump failed half-way (restic#2135, fixed by `--stdin-from-command` only in 0.17): so restic's
 * stdin is ended only after the dump exited 0, and a failed dump stops restic (SIGINT: it
 * removes its lock and writes no snapshot; stopRestic). The run then fails with the dump's words.
 */
import { spawn } from 'node:child_process';
import { DUMP_FLAGS } from '../../agent/lib/mariadbDump';
import { z } from 'zod';
import { type ResticTarget, stopRestic } from './agentRestic';
import { type BackupResult, type RunControls, startBackup } from './agentResticBackup';
import { failed, lastWords } from './agentResticErrors';
import { checked, databaseSchema, hostSchema, tagSchema } from './agentResticInput';
import { retryIfLocked } from './agentRepoMaintenance';
import { ID } from './agentBackupFiles';

export const backupDatabaseSchema = z.object({
  db_id: z.string().regex(ID),
  database: databaseSchema,
  host: hostSchema,
  tags: z.array(tagSchema).max(8).default([]),
});
export type BackupDatabaseInput = z.input<typeof backupDatabaseSchema>;

export const databaseTags = (dbId: string, extra: readonly string[] = []) => [
  `db:${dbId}`,
  'type:database',
  ...extra,
];

/** The file a database's snapshot holds (restore and dump name it). */
export const dumpFileName = (database: string) => `${database}.sql`;

export interface DatabaseControls extends RunControls {
  /** The dump's process id (a cancel, or a test that kills it half-way). */
  onDumpSpawn?: (pid: number) => void;
}

interface DumpEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** One attempt: the dump and restic side by side, each stopping the other when it fails. */
async function once(
  target: ResticTarget,
  database: string,
  argv: string[],
  options: DatabaseControls,
): Promise<BackupResult> {
  const dump = spawn('mariadb-dump', [...DUMP_FLAGS, database], {
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (dump.pid !== undefined) options.onDumpSpawn?.(dump.pid);
  // restic 0.14 counts a stdin file's bytes only once it has ended: the bytes that went through
  // the pipe are the progress while the dump runs (its total is not known beforehand).
  let piped = 0;
  dump.stdout.on('data', (d: Buffer) => (piped += d.length));
  const onProgress = options.onProgress;
  const { run, result } = startBackup(target, argv, {
    ...options,
    stdin: true,
    onProgress:
      onProgress && ((p) => onProgress({ ...p, bytes_done: Math.max(p.bytes_done, piped) })),
  });
  const stdin = run.child.stdin!;
  let stderr = '';
  dump.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8_000)));
  const dumped = new Promise<DumpEnd>((resolve) => {
    dump.on('error', (e) => resolve({ code: 127, signal: null, stderr: e.message }));
    dump.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  // Not ended with the dump's stdout: restic must not see EOF (and save) before the exit code.
  dump.stdout.pipe(stdin, { end: false });
  void dumped.then((d) => (d.code === 0 ? stdin.end() : stopRestic(run.child)));
  // restic gone first (no repository, locked, a full disk): the dump has nobody to write to,
  // and restic's failure is the cause.
  let resticFirst = false;
  void run.exit.then(() => {
    if (dump.exitCode !== null || dump.signalCode !== null) return;
    resticFirst = true;
    dump.kill('SIGTERM');
  });
  const [d, r] = await Promise.all([dumped, result]);
  if (d.code !== 0 && !resticFirst)
    return failed(
      'dump_failed',
      `The dump of ${database} failed, so no backup was saved: ${lastWords(d.stderr) || (d.signal ? `killed by ${d.signal}` : `exit ${d.code}`)}`,
      d.stderr,
    );
  return r;
}

export async function backupDatabase(
  target: ResticTarget,
  input: BackupDatabaseInput,
  options: DatabaseControls = {},
): Promise<BackupResult> {
  const args = checked(backupDatabaseSchema, input, 'backup');
  const tags = checked(z.array(tagSchema), databaseTags(args.db_id, args.tags), 'tags');
  const argv = [
    '--stdin',
    `--stdin-filename=${dumpFileName(args.database)}`,
    '--host',
    args.host,
    ...tags.flatMap((t) => ['--tag', t]),
  ];
  // retryIfLocked holds the repository's lane for the attempts (and the unlock between).
  return retryIfLocked(target, () => once(target, args.database, argv, options));
}
