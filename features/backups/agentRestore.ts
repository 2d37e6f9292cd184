/**
 * Restores, always into something new (never over the live app or database: the caller swaps it
 * in once it is checked). Files: `restic restore <snapshot> --target <new folder>`, then the
 * folder's entries and bytes compared with the snapshot's own count (`stats --mode restore-size`):
 * 0.14's restore prints no progress and exits 0 even when it wrote nothing. Database:
 * `restic dump <snapshot> <db>.sql | mariadb <new db>`, both exit codes and the dump's closing line
 * checked, the new database dropped again when anything failed.
 */
import { spawn } from 'node:child_process';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from '../databases/agentApi';
import { DB_NAME, literal } from '../databases/api';
import { type ResticTarget, restic, startRestic, stopRestic } from './agentRestic';
import { type Failed, classifyExit, failed, lastWords } from './agentResticErrors';
import { checked, confinedNewPath, databaseSchema, snapshotSchema } from './agentResticInput';
import { inLane } from './agentResticLane';
import { parseJson, retryIfLocked } from './agentRepoMaintenance';
import { dumpFileName } from './agentBackupDatabase';

export interface Size {
  /** Entries below the root (files, folders, links, ...), as restic counts them. */
  files: number;
  /** Bytes of regular files, a hard-linked file once. */
  bytes: number;
}

/** A snapshot's size once restored, by restic. */
export async function snapshotSize(target: ResticTarget, snapshot: string): Promise<Size | Failed> {
  const id = checked(snapshotSchema, snapshot, 'snapshot');
  const ended = await restic(target, 'stats', ['--mode', 'restore-size', '--', id]);
  const problem = classifyExit(ended);
  if (problem) return { status: 'failed', error: problem };
  const s = parseJson<{ total_size?: number; total_file_count?: number }>(ended.stdout);
  if (typeof s?.total_size !== 'number' || typeof s.total_file_count !== 'number')
    return failed('failed', 'restic did not report the size of the backup.', ended.stdout);
  return { files: s.total_file_count, bytes: s.total_size };
}

/** The same count of a folder on disk (lstat: links are not followed). */
export async function folderSize(dir: string): Promise<Size> {
  const seen = new Set<string>();
  let files = 0;
  let bytes = 0;
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      files++;
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile()) {
        const st = await lstat(p);
        const inode = `${st.dev}:${st.ino}`;
        if (st.nlink > 1 && seen.has(inode)) continue;
        seen.add(inode);
        bytes += st.size;
      }
    }
  };
  await walk(dir);
  return { files, bytes };
}

export interface FilesRestored extends Size {
  status: 'ok';
  /** Where the files are (the real path of the new folder). */
  target: string;
}

/** Restores a snapshot of an app into a new folder and checks it holds what the snapshot holds. */
export async function restoreFiles(
  target: ResticTarget,
  input: { snapshot: string; target: string },
  options: { allowedRoots: readonly string[]; signal?: AbortSignal },
): Promise<FilesRestored | Failed> {
  const id = checked(snapshotSchema, input.snapshot, 'snapshot');
  const dir = await confinedNewPath(input.target, options.allowedRoots, 'target');
  return retryIfLocked(target, async () => {
    const expected = await snapshotSize(target, id);
    if ('status' in expected) return expected;
    const ended = await restic(target, 'restore', ['--target', dir, '--', id], {
      signal: options.signal,
    });
    const problem = classifyExit(ended);
    if (problem) return { status: 'failed', error: problem };
    const got = await folderSize(dir).catch(() => ({ files: 0, bytes: 0 }));
    if (got.files !== expected.files || got.bytes !== expected.bytes)
      return failed(
        'verify_failed',
        `The restored folder does not match the backup: ${got.files} of ${expected.files} entries, ${got.bytes} of ${expected.bytes} bytes. It was left at ${dir} for a look.`,
      );
    return { status: 'ok', target: dir, ...got };
  });
}

export interface DatabaseRestored {
  status: 'ok';
  database: string;
  tables: number;
}

const exists = async (db: string) =>
  (
    await sql(
      `SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${literal(db, DB_NAME)};`,
    )
  )[0]?.[0] === '1';

/** A mariadb-dump ends with this comment line; a dump cut short does not. */
const COMPLETED = /-- Dump completed( on [^\n]*)?\s*$/;

/** `restic dump | mariadb <into>`: restic's stdout into the client, both checked. */
async function load(target: ResticTarget, id: string, file: string, into: string) {
  const client = spawn(
    'mariadb',
    ['--binary-mode', '--default-character-set=utf8mb4', '--max-allowed-packet=1G', into],
    {
      env: {
        PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        LANG: 'C.UTF-8',
      },
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  let said = '';
  client.stderr.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-8_000)));
  client.stdin.on('error', () => undefined);
  const loaded = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    client.on('error', (e) => resolve({ code: 127, stderr: e.message }));
    client.on('close', (code) => resolve({ code, stderr: said }));
  });
  const run = startRestic(target, 'dump', ['--', id, file], { json: false, rawStdout: true });
  let tail = '';
  run.child.stdout.on('data', (d: Buffer) => (tail = (tail + d.toString('latin1')).slice(-300)));
  run.child.stdout.pipe(client.stdin);
  void loaded.then((l) => l.code !== 0 && stopRestic(run.child));
  const [dumped, imported] = await Promise.all([run.exit, loaded]);
  return { dumped, imported, complete: COMPLETED.test(tail) };
}

/** Loads a database's snapshot into a new database `into` (created here, dropped on failure). */
export async function restoreDatabase(
  target: ResticTarget,
  input: { snapshot: string; database: string; into: string },
): Promise<DatabaseRestored | Failed> {
  const id = checked(snapshotSchema, input.snapshot, 'snapshot');
  const database = checked(databaseSchema, input.database, 'database');
  const into = checked(databaseSchema, input.into, 'into');
  return inLane(target, async () => {
    if (await exists(into))
      return failed('failed', `The database ${into} exists already: a restore goes to a new one.`);
    await sql(`CREATE DATABASE \`${into}\` CHARACTER SET utf8mb4;`);
    const { dumped, imported, complete } = await load(target, id, dumpFileName(database), into);
    const problem = classifyExit(dumped);
    const why = problem
      ? { status: 'failed' as const, error: problem }
      : imported.code !== 0
        ? failed(
            'import_failed',
            `Loading the backup into ${into} failed: ${lastWords(imported.stderr)}`,
            imported.stderr,
          )
        : !complete
          ? failed('verify_failed', 'The backed-up dump is incomplete (no closing line).')
          : null;
    if (why) {
      await sql(`DROP DATABASE IF EXISTS \`${into}\`;`);
      return why;
    }
    const [[tables]] = (await sql(
      `SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${literal(into, DB_NAME)};`,
    )) as [[string]];
    return { status: 'ok', database: into, tables: Number(tables) };
  });
}
