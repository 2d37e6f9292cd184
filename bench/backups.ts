/**
 * Backups (issue 24): the agent's restic runner (features/backups/agent*.ts) against the panel's
 * own restic REST storage, the panel built in this process on a throwaway SQLite install and
 * listening on 127.0.0.1 (restic reaches it over HTTP like an agent would), and the machine's
 * MariaDB. An app of `BACKUP_APP_MB` (1024) in files of mixed sizes (small text files, medium
 * half-random ones, large random ones) is backed up, 1 % of its files changed and backed up
 * again; the second snapshot restored (restoreFiles, checked) against `tar -x` of a tar of the
 * same tree; a database of `BACKUP_DB_MB` (200) backed up (backupDatabase) against a plain
 * `mariadb-dump` with the same flags to a file; then ten "daily" runs (2 % of the files changed,
 * 0.5 % added each) and the repository's bytes against the sum of its snapshots' sizes.
 * The page cache is not dropped (it cannot be, reliably): the tree, the tar and the database
 * are read once before each comparison, so neither side starts cold.
 *
 * Tried for the restore and left out: `restic dump --archive tar <snap> / | tar -x` into the new
 * folder. restic 0.14's dump loads the blobs one after another, so over the panel's REST storage
 * it took 2.6x `restic restore` (1 GB, 13,320 files: 26.2 s against 9.9 s, `tar -x` 3.4 s; 256
 * MB: 7.3 s against 3.7 s); only on a local repository was it a little faster (3.4 s against
 * 4.0 s), and agents never restore from one.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DUMP_FLAGS } from '../agent/lib/mariadbDump';
import { backupDatabase } from '../features/backups/agentBackupDatabase';
import { backupFiles } from '../features/backups/agentBackupFiles';
import { type ResticTarget, restic } from '../features/backups/agentRestic';
import type { BackupDone, BackupResult } from '../features/backups/agentResticBackup';
import { ensureRepository, listSnapshots } from '../features/backups/agentRepoMaintenance';
import { folderSize, restoreFiles, snapshotSize } from '../features/backups/agentRestore';
import { build } from '../server/app';
import { loadConfig } from '../server/config';

const exec = promisify(execFile);
const MB = 1024 * 1024;

export interface BackupsResult {
  storage: string;
  appMb: number;
  files: number;
  first: { ms: number; addedBytes: number; storedBytes: number };
  second: { ms: number; changed: number; addedBytes: number; storedBytes: number };
  /** second / first, by time. */
  incrementalRatio: number;
  restoreMs: number;
  /** restic restore alone. */
  plainRestoreMs: number;
  tarMs: number;
  restoreRatio: number;
  dbMb: number;
  dumpBytes: number;
  dbBackupMs: number;
  dumpMs: number;
  dbRatio: number;
  daily: { runs: number; snapshots: number; repoBytes: number; snapshotBytes: number };
}

/** A file of the app: where, and which kind of content it gets (again, when changed). */
interface AppFile {
  rel: string;
  size: number;
  kind: 'text' | 'mixed' | 'random';
}

const WORDS = 'function return array string echo include require class public private static'
  .split(' ')
  .concat(['$value', '$this->', '=>', '{', '}', ';', '// note', 'if (', 'foreach (', '<?php']);

/** Source-like text: compressible, but not a repeated block (restic would dedup that away). */
function text(size: number): Buffer {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const line = `${' '.repeat(randomInt(0, 8))}${Array.from({ length: randomInt(3, 12) }, () => WORDS[randomInt(WORDS.length)]).join(' ')} ${randomInt(1e6)}\n`;
    parts.push(line);
    length += line.length;
  }
  return Buffer.from(parts.join('')).subarray(0, size);
}

function content(file: AppFile): Buffer {
  if (file.kind === 'random') return randomBytes(file.size);
  if (file.kind === 'text') return text(file.size);
  const half = Math.floor(file.size / 2);
  return Buffer.concat([randomBytes(half), text(file.size - half)]);
}

/**
 * The app's files: by bytes, 10 % small text files (1-16 KB), 40 % medium ones (16 KB-1 MB,
 * half random) and 50 % large random ones (1-16 MB, like images and archives), 100 to a folder.
 */
function plan(totalBytes: number, start = 0): AppFile[] {
  const files: AppFile[] = [];
  const classes = [
    { share: 0.1, min: 1024, max: 16 * 1024, kind: 'text' as const },
    { share: 0.4, min: 16 * 1024, max: MB, kind: 'mixed' as const },
    { share: 0.5, min: MB, max: 16 * MB, kind: 'random' as const },
  ];
  for (const c of classes) {
    let left = Math.floor(totalBytes * c.share);
    while (left > 0) {
      const size = Math.min(left, randomInt(c.min, c.max + 1));
      files.push({ rel: '', size, kind: c.kind });
      left -= size;
    }
  }
  // Shuffled, so every folder holds a mix.
  for (let i = files.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [files[i], files[j]] = [files[j]!, files[i]!];
  }
  return files.map((f, i) => {
    const n = start + i;
    return { ...f, rel: `d${Math.floor(n / 1000)}/s${Math.floor(n / 100) % 10}/f${n}.bin` };
  });
}

async function write(root: string, files: readonly AppFile[]) {
  for (const f of files) {
    const p = path.join(root, f.rel);
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, content(f));
  }
}

/** Rewrites `share` of the files with new content of the same kind and size. */
async function change(root: string, files: readonly AppFile[], share: number) {
  const picked = new Set<number>();
  const count = Math.max(1, Math.round(files.length * share));
  while (picked.size < count) picked.add(randomInt(files.length));
  await write(
    root,
    [...picked].map((i) => files[i]!),
  );
  return count;
}

/** A step's start, on stderr (the figures go to stdout). */
const step = (what: string) => process.stderr.write(`  [backups] ${what}\n`);

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
};

function ok(result: BackupResult): BackupDone {
  if (result.status === 'failed')
    throw new Error(`backup failed: ${result.error.message} (${result.error.detail})`);
  return result;
}

/** Runs a program to its end with its stdout into a file (or nowhere); throws on failure. */
async function run(program: string, args: readonly string[], stdoutTo?: string): Promise<void> {
  const child = spawn(program, args, { stdio: ['ignore', stdoutTo ? 'pipe' : 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const written = stdoutTo
    ? new Promise<void>((resolve, reject) =>
        child
          .stdout!.pipe(createWriteStream(stdoutTo))
          .on('close', () => resolve())
          .on('error', reject),
      )
    : null;
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  await written;
  if (code !== 0) throw new Error(`${program} exited ${code}: ${stderr}`);
}

/** Reads a folder's files once (into the page cache). */
const warm = (dir: string) => run('tar', ['-cf', '/dev/null', '-C', dir, '.']);

const mariadb = async (statements: string, db?: string) =>
  (
    await exec('mariadb', ['--batch', '--skip-column-names', ...(db ? [db] : []), '-e', statements])
  ).stdout.trim();

/** A table of about `mb` MB: rows of ~1 KB, part random (hashes), part repetitive text. */
async function makeDatabase(db: string, mb: number) {
  const rows = Math.ceil((mb * MB) / 1024);
  await mariadb(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4;
    CREATE TABLE \`${db}\`.posts (id INT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(200),
      body MEDIUMTEXT, created DATETIME) ENGINE=InnoDB;`);
  for (let from = 1; from <= rows; from += 100_000) {
    const to = Math.min(rows, from + 99_999);
    // The sequence engine's seq_ tables need a current database.
    await mariadb(
      `INSERT INTO posts (title, body, created)
      SELECT CONCAT('Post ', seq, ' ', MD5(RAND())),
        CONCAT_WS(' ', SHA2(RAND(), 512), SHA2(RAND(), 512), REPEAT(CONCAT('lorem ipsum ', seq % 97, ' '), 40)),
        NOW() - INTERVAL seq MINUTE
      FROM seq_${from}_to_${to};`,
      db,
    );
  }
}

export async function backupsBench(
  appMb = Number(process.env.BACKUP_APP_MB ?? 1024),
  dbMb = Number(process.env.BACKUP_DB_MB ?? 200),
): Promise<BackupsResult> {
  const work = await mkdtemp('/var/tmp/stackdeck-bench-backups-');
  const app = await build({
    config: { ...loadConfig({}), dataDir: path.join(work, 'panel'), webDir: null },
  });
  const db = `sd_bench_${randomBytes(4).toString('hex')}`;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const repos = app.services.backupRepositories;
    const repo = await repos.create(null);
    // BACKUP_STORAGE=local: a repository in a local folder instead (restic -r <folder>), to see
    // what the HTTP storage itself costs.
    const local = process.env.BACKUP_STORAGE === 'local';
    const repoDir = local ? path.join(work, 'repo') : repos.localPath(repo.uuid);
    const target: ResticTarget = {
      repository: local
        ? repoDir
        : `rest:http://${repo.uuid}:${repo.secret}@127.0.0.1:${port}/restic/${repo.uuid}/`,
      password: randomBytes(16).toString('hex'),
      cache_dir: path.join(work, 'cache'),
    };
    const stored = async () => (await folderSize(repoDir)).bytes;
    const created = await ensureRepository(target);
    if (created.status !== 'ok') throw new Error(created.error.message);
    const host = `bench-${randomUUID()}`;
    const allowedRoots = [work];
    const root = path.join(work, 'app');
    const files = plan(appMb * MB);
    step(`writing ${files.length} files`);
    await write(root, files);
    const backup = () => backupFiles(target, { app_id: 'bench', root, host }, { allowedRoots });

    // First and second backup (1 % of the files rewritten in between).
    await warm(root);
    const stored0 = await stored();
    step('first backup');
    const [first, firstMs] = await timed(async () => ok(await backup()));
    const stored1 = await stored();
    const changed = await change(root, files, 0.01);
    await warm(root);
    step('second backup');
    const [second, secondMs] = await timed(async () => ok(await backup()));
    const stored2 = await stored();

    // Restore of the second snapshot vs tar -x of the same tree.
    step('restore vs tar -x');
    const tar = path.join(work, 'app.tar');
    await run('tar', ['-cf', tar, '-C', root, '.']);
    await run('cat', [tar], '/dev/null');
    await warm(repoDir);
    const untarred = path.join(work, 'untarred');
    await mkdir(untarred);
    const [, tarMs] = await timed(() => run('tar', ['-xf', tar, '-C', untarred]));
    await rm(untarred, { recursive: true, force: true });
    await rm(tar, { force: true });
    const [restored, restoreMs] = await timed(() =>
      restoreFiles(
        target,
        { snapshot: second.summary.snapshot_id, target: path.join(work, 'restored') },
        { allowedRoots },
      ),
    );
    if (restored.status !== 'ok') throw new Error(`restore failed: ${restored.error.message}`);
    await rm(path.join(work, 'restored'), { recursive: true, force: true });
    // Of that, restic's restore alone (restoreFiles also asks restic for the snapshot's size and
    // counts the restored folder).
    const [plain, plainRestoreMs] = await timed(() =>
      restic(target, 'restore', [
        '--target',
        path.join(work, 'restored2'),
        '--',
        second.summary.snapshot_id,
      ]),
    );
    if (plain.code !== 0) throw new Error(`restic restore failed: ${plain.stderr}`);
    await rm(path.join(work, 'restored2'), { recursive: true, force: true });

    // The database: backupDatabase vs mariadb-dump to a file, same flags.
    step('database');
    await makeDatabase(db, dbMb);
    const dumpFile = path.join(work, 'dump.sql');
    await run('mariadb-dump', [...DUMP_FLAGS, db], '/dev/null');
    const [, dumpMs] = await timed(() => run('mariadb-dump', [...DUMP_FLAGS, db], dumpFile));
    const dumpBytes = (await exec('stat', ['-c', '%s', dumpFile])).stdout.trim();
    await rm(dumpFile, { force: true });
    const [, dbBackupMs] = await timed(async () =>
      ok(await backupDatabase(target, { db_id: 'bench', database: db, host })),
    );

    // Ten daily runs: 2 % of the files changed, 0.5 % new ones, a backup each.
    step('ten daily runs');
    let all = files;
    for (let day = 0; day < 10; day++) {
      await change(root, all, 0.02);
      const added = plan(Math.round(appMb * MB * 0.005), all.length);
      await write(root, added);
      all = [...all, ...added];
      ok(await backup());
    }
    const listed = await listSnapshots(target, { host });
    if (listed.status !== 'ok') throw new Error(listed.error.message);
    let snapshotBytes = 0;
    for (const s of listed.snapshots) {
      const size = await snapshotSize(target, s.id);
      if ('status' in size) throw new Error(size.error.message);
      snapshotBytes += size.bytes;
    }
    const repoBytes = await stored();

    return {
      storage: local
        ? 'a local repository (BACKUP_STORAGE=local)'
        : "the panel's own restic REST storage (in this process, over HTTP on 127.0.0.1)",
      appMb,
      files: files.length,
      first: {
        ms: firstMs,
        addedBytes: first.summary.data_added,
        storedBytes: stored1 - stored0,
      },
      second: {
        ms: secondMs,
        changed,
        addedBytes: second.summary.data_added,
        storedBytes: stored2 - stored1,
      },
      incrementalRatio: secondMs / firstMs,
      restoreMs,
      plainRestoreMs,
      tarMs,
      restoreRatio: restoreMs / tarMs,
      dbMb,
      dumpBytes: Number(dumpBytes),
      dbBackupMs,
      dumpMs,
      dbRatio: dbBackupMs / dumpMs,
      daily: { runs: 10, snapshots: listed.snapshots.length, repoBytes, snapshotBytes },
    };
  } finally {
    await mariadb(`DROP DATABASE IF EXISTS \`${db}\`;`).catch(() => undefined);
    await app.close().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}
