/**
 * The agent's restic runner (features/backups/agent*.ts) against real restic 0.14 and the
 * machine's MariaDB: no sandbox server, a local repository in a temp folder and databases of
 * this file's own (unique names, dropped at the end).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ResticTarget, restic, startRestic } from '../../features/backups/agentRestic';
import { appTags, backupFiles } from '../../features/backups/agentBackupFiles';
import { backupDatabase, databaseTags } from '../../features/backups/agentBackupDatabase';
import type { BackupDone, BackupResult } from '../../features/backups/agentResticBackup';
import type { BackupProgress } from '../../features/backups/agentResticProgress';
import {
  checkRepository,
  ensureRepository,
  forgetAfter,
  listSnapshots,
} from '../../features/backups/agentRepoMaintenance';
import { restoreDatabase, restoreFiles } from '../../features/backups/agentRestore';

const exec = promisify(execFile);
const sql = async (statements: string, db = '') =>
  (
    await exec('mariadb', ['--batch', '--skip-column-names', ...(db ? [db] : []), '-e', statements])
  ).stdout.trim();

const tag = randomBytes(4).toString('hex');
const HOST = `server-${randomUUID()}`;
const DB = `sd_restic_${tag}`;
const DB_RESTORED = `sd_restic_${tag}_r`;
let TMP = '';
let APPS = '';
let target: ResticTarget;

/** Asserts a run succeeded (ok or partial) and narrows it. */
function done(r: BackupResult): BackupDone {
  if (r.status === 'failed')
    throw new Error(`${r.error.kind}: ${r.error.message} (${r.error.detail})`);
  return r;
}

const locks = async (t: ResticTarget = target) =>
  (await restic(t, 'list', ['locks', '--no-lock'])).stdout.split('\n').filter(Boolean);

const snapshotsOf = async (tags: string[]) => {
  const r = await listSnapshots(target, { host: HOST, tags });
  if (r.status !== 'ok') throw new Error(r.error.message);
  return r.snapshots;
};

async function makeApp(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const root = path.join(APPS, name);
  for (const [rel, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), body);
  }
  return root;
}

beforeAll(async () => {
  TMP = await mkdtemp('/var/tmp/stackdeck-restic-test-');
  APPS = path.join(TMP, 'apps');
  await mkdir(APPS);
  target = {
    repository: path.join(TMP, 'repo'),
    password: randomBytes(16).toString('hex'),
    cache_dir: path.join(TMP, 'cache'),
  };
  expect(await ensureRepository(target)).toEqual({ status: 'ok', created: true });
  expect(await ensureRepository(target)).toEqual({ status: 'ok', created: false });
  // Format 2: compressed.
  const cat = await restic(target, 'cat', ['config']);
  expect(JSON.parse(cat.stdout).version).toBe(2);
});

afterAll(async () => {
  await sql(`DROP DATABASE IF EXISTS \`${DB}\`; DROP DATABASE IF EXISTS \`${DB_RESTORED}\`;`);
  if (TMP) await rm(TMP, { recursive: true, force: true });
});

describe('files', () => {
  let first: BackupDone;
  let second: BackupDone;
  let app1 = '';

  it('backs up an app folder: a summary, a snapshot with its tags and host, progress', async () => {
    const files: Record<string, string | Buffer> = {
      'index.php': '<?php echo "hello";\n',
      'data/big.bin': randomBytes(2 * 1024 * 1024),
      'wp-content/cache/page.html': 'cached',
      'logs/access.log': 'GET /\n',
    };
    for (let i = 0; i < 40; i++) files[`pages/p${i}.html`] = `<p>page ${i}</p>\n`;
    app1 = await makeApp('app1', files);
    await symlink('index.php', path.join(app1, 'home.php'));
    const seen: BackupProgress[] = [];
    first = done(
      await backupFiles(
        target,
        { app_id: '1', root: app1, host: HOST, excludes: ['wp-content/cache', '*.log'] },
        { allowedRoots: [APPS], onProgress: (p) => seen.push(p) },
      ),
    );
    expect(first.status).toBe('ok');
    expect(first.warning).toBeNull();
    expect(first.summary.snapshot_id).toMatch(/^[0-9a-f]{8}$/);
    // index.php, big.bin, 40 pages (restic's summary counts no link; the excluded cache page and
    // log are not read at all).
    expect(first.summary.files_new).toBe(42);
    expect(first.summary.total_bytes_processed).toBeGreaterThan(2 * 1024 * 1024);
    expect(first.summary.data_added).toBeGreaterThan(2 * 1024 * 1024);
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) {
      expect(p.percent).toBeGreaterThanOrEqual(0);
      expect(p.percent).toBeLessThanOrEqual(100);
      expect(typeof p.total_bytes).toBe('number');
      expect(typeof p.files_done).toBe('number');
    }
    const [snap] = await snapshotsOf(appTags('1'));
    expect(snap!.id.startsWith(first.summary.snapshot_id)).toBe(true);
    expect(snap!.hostname).toBe(HOST);
    expect(snap!.tags.sort()).toEqual(['app:1', 'type:webapp']);
    // restic ran in the app's folder and saved `.`: the files sit at the snapshot's root.
    const ls = await restic(target, 'ls', ['--', snap!.id]);
    const names = ls.stdout.split('\n').map((l) => (l.startsWith('{') ? JSON.parse(l).path : ''));
    expect(names).toContain('/index.php');
    expect(names).toContain('/data/big.bin');
    expect(names).not.toContain('/wp-content/cache/page.html');
    expect(names).not.toContain('/logs/access.log');
  });

  it('a second backup after one changed file adds little', async () => {
    await writeFile(path.join(app1, 'pages/p7.html'), '<p>page seven, changed</p>\n');
    second = done(
      await backupFiles(
        target,
        { app_id: '1', root: app1, host: HOST, excludes: ['wp-content/cache', '*.log'] },
        { allowedRoots: [APPS], limits: { gentle: true, upload_kib: 10_240 } },
      ),
    );
    expect(second.status).toBe('ok');
    expect(second.summary.files_changed).toBe(1);
    expect(second.summary.files_new).toBe(0);
    expect(second.summary.data_added).toBeLessThan(16 * 1024);
    expect(second.summary.data_added * 100).toBeLessThan(first.summary.data_added);
    expect(await snapshotsOf(appTags('1'))).toHaveLength(2);
  });

  it('refuses folders outside the allowed roots, symlinks out included', async () => {
    const run = (root: string) =>
      backupFiles(target, { app_id: '1', root, host: HOST }, { allowedRoots: [APPS] });
    await expect(run('/etc')).rejects.toThrow(/outside the allowed folders/);
    await expect(run(`${APPS}/../repo`)).rejects.toThrow(/absolute path/);
    await symlink('/etc', path.join(APPS, 'escape'));
    await expect(run(path.join(APPS, 'escape'))).rejects.toThrow(/outside the allowed folders/);
    await expect(run(APPS)).rejects.toThrow(/outside the allowed folders/);
    await expect(
      backupFiles(
        target,
        { app_id: '1', root: app1, host: HOST, tags: ['run:1,app:2'] },
        {
          allowedRoots: [APPS],
        },
      ),
    ).rejects.toThrow();
  });

  it('restores into a new folder and checks it against the snapshot', async () => {
    const into = path.join(TMP, 'restored-app1');
    const r = await restoreFiles(
      target,
      { snapshot: second.summary.snapshot_id, target: into },
      { allowedRoots: [TMP] },
    );
    if (r.status !== 'ok') throw new Error(r.error.message);
    expect(r.target).toBe(into);
    // 42 files, the link, and the folders data, pages, wp-content, logs (the last two empty).
    expect(r.files).toBe(47);
    expect(await readFile(path.join(into, 'pages/p7.html'), 'utf8')).toBe(
      '<p>page seven, changed</p>\n',
    );
    expect(await readFile(path.join(into, 'data/big.bin'))).toEqual(
      await readFile(path.join(app1, 'data/big.bin')),
    );
    expect(await readdir(path.join(into, 'wp-content'))).toEqual([]);
    // Never over something that exists, never outside the allowed roots.
    await expect(
      restoreFiles(
        target,
        { snapshot: second.summary.snapshot_id, target: into },
        { allowedRoots: [TMP] },
      ),
    ).rejects.toThrow(/exists already/);
    await expect(
      restoreFiles(
        target,
        { snapshot: second.summary.snapshot_id, target: '/etc/x' },
        { allowedRoots: [TMP] },
      ),
    ).rejects.toThrow(/outside/);
  });

  it('a file root cannot read makes the run partial (exit 3), naming the file', async () => {
    // The agent runs as root, which reads everything: restic runs here without the capabilities
    // that let root ignore file modes (setpriv), so a chmod 000 file is unreadable to it.
    const app = await makeApp('app-partial', { 'ok.txt': 'fine', 'secret.txt': 'hidden' });
    await chmod(path.join(app, 'secret.txt'), 0o000);
    const withoutDacOverride: ResticTarget = {
      ...target,
      program: ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--', 'restic'],
    };
    const r = done(
      await backupFiles(
        withoutDacOverride,
        { app_id: 'partial', root: app, host: HOST },
        {
          allowedRoots: [APPS],
        },
      ),
    );
    expect(r.status).toBe('partial');
    expect(r.warning?.kind).toBe('partial');
    expect(r.unreadable).toEqual([
      { item: path.join(app, 'secret.txt'), error: 'permission denied' },
    ]);
    expect(r.warning?.message).toMatch(
      /One file could not be read .*secret\.txt \(permission denied\)/,
    );
    expect(await snapshotsOf(appTags('partial'))).toHaveLength(1);
  });
});

describe('databases', () => {
  let snapshot = '';

  beforeAll(async () => {
    await sql(
      `CREATE DATABASE \`${DB}\` CHARACTER SET utf8mb4;
       CREATE TABLE \`${DB}\`.items (id INT PRIMARY KEY, name VARCHAR(100), blob_col BLOB);
       USE \`${DB}\`;
       INSERT INTO items SELECT seq, CONCAT('Zürich ', seq), UNHEX(SHA2(seq, 256)) FROM seq_1_to_500;
       CREATE TABLE zz_last (id INT PRIMARY KEY); INSERT INTO zz_last VALUES (1);`,
    );
  });

  it('backs up a dump through restic stdin and restores it into a new database with the same rows', async () => {
    const r = done(await backupDatabase(target, { db_id: '7', database: DB, host: HOST }));
    expect(r.status).toBe('ok');
    snapshot = r.summary.snapshot_id;
    const [snap] = await snapshotsOf(databaseTags('7'));
    expect(snap!.paths).toEqual([`/${DB}.sql`]);
    expect(snap!.hostname).toBe(HOST);
    const restored = await restoreDatabase(target, { snapshot, database: DB, into: DB_RESTORED });
    if (restored.status !== 'ok') throw new Error(restored.error.message);
    expect(restored.tables).toBe(2);
    const checksum = (db: string) => sql(`CHECKSUM TABLE \`${db}\`.items`);
    expect((await checksum(DB_RESTORED)).split('\t')[1]).toBe((await checksum(DB)).split('\t')[1]);
    expect(await sql(`SELECT COUNT(*) FROM \`${DB_RESTORED}\`.items`)).toBe('500');
    expect(await sql(`SELECT name FROM \`${DB_RESTORED}\`.items WHERE id = 42`)).toBe('Zürich 42');
    // Never into a database that exists.
    const again = await restoreDatabase(target, { snapshot, database: DB, into: DB_RESTORED });
    expect(again.status).toBe('failed');
  });

  it('a dump that fails leaves no snapshot and no lock, and the run says why', async () => {
    const before = await snapshotsOf(databaseTags('8'));
    const r = await backupDatabase(target, {
      db_id: '8',
      database: `sd_restic_${tag}_missing`,
      host: HOST,
    });
    expect(r.status).toBe('failed');
    if (r.status !== 'failed') return;
    expect(r.error.kind).toBe('dump_failed');
    expect(r.error.message).toMatch(/Unknown database/);
    expect(await snapshotsOf(databaseTags('8'))).toEqual(before);
    // Nothing new of any tag either (restic would have named the stdin file anyway).
    const all = await listSnapshots(target);
    if (all.status !== 'ok') throw new Error('snapshots');
    expect(all.snapshots.filter((s) => s.paths.some((p) => p.includes('missing')))).toEqual([]);
    expect(await locks()).toEqual([]);
  });

  /**
   * A session holding `LOCK TABLES zz_last WRITE`: the dump writes `items`, then waits at zz_last
   * (its last table) until the lock goes, a dump stopped half-way for as long as a test needs.
   */
  async function holdLastTable(): Promise<() => Promise<void>> {
    const client = spawn('mariadb', ['--batch', '--unbuffered', '--skip-column-names', DB], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const closed = new Promise((r) => client.on('close', r));
    const locked = new Promise((r) =>
      client.stdout.on('data', (d: Buffer) => /locked/.test(d.toString()) && r(null)),
    );
    client.stdin.write("LOCK TABLES zz_last WRITE; SELECT 'locked';\n");
    await locked;
    // Let go after 30 s whatever happens: a test whose kill never came fails instead of hanging.
    const guard = setTimeout(() => client.stdin.end(), 30_000);
    return async () => {
      clearTimeout(guard);
      client.stdin.end();
      await closed;
    };
  }

  it('a dump killed half-way leaves no snapshot and no lock', async () => {
    const release = await holdLastTable();
    let dumpPid = 0;
    let killed = false;
    const r = await backupDatabase(
      target,
      { db_id: '9', database: DB, host: HOST },
      {
        onDumpSpawn: (pid) => (dumpPid = pid),
        // restic has read part of the dump (items), the dump waits at zz_last: kill it.
        onProgress: (p) => {
          if (killed || p.bytes_done === 0) return;
          killed = true;
          process.kill(dumpPid, 'SIGKILL');
        },
      },
    ).finally(release);
    expect(killed).toBe(true);
    expect(r.status === 'failed' && r.error.kind).toBe('dump_failed');
    expect(await snapshotsOf(databaseTags('9'))).toEqual([]);
    expect(await locks()).toEqual([]);
  });

  it('a run stopped by its caller (abort) saves nothing and leaves no lock', async () => {
    const release = await holdLastTable();
    const stop = new AbortController();
    const r = await backupDatabase(
      target,
      { db_id: '10', database: DB, host: HOST },
      { signal: stop.signal, onProgress: (p) => p.bytes_done > 0 && stop.abort() },
    ).finally(release);
    expect(r.status === 'failed' && r.error.kind).toBe('interrupted');
    expect(await snapshotsOf(databaseTags('10'))).toEqual([]);
    expect(await locks()).toEqual([]);
  });

  it('restoring a database name the snapshot lacks fails and leaves no database', async () => {
    const into = `sd_restic_${tag}_x`;
    const r = await restoreDatabase(target, { snapshot, database: 'other', into });
    expect(r.status).toBe('failed');
    expect(
      await sql(`SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${into}'`),
    ).toBe('0');
  });
});

describe('locks, passwords, lanes, retention', () => {
  it('kill -9 mid-backup leaves a stale lock; the next exclusive run unlocks it and succeeds', async () => {
    const app = await makeApp('app-big', { 'big.bin': randomBytes(40 * 1024 * 1024) });
    let pid = 0;
    let killed = false;
    const r = await backupFiles(
      target,
      { app_id: 'big', root: app, host: HOST },
      {
        allowedRoots: [APPS],
        // 40 MB at 2 MB/s: about 20 s, killed at its first progress report.
        limits: { upload_kib: 2048 },
        onSpawn: (p) => (pid = p),
        onProgress: () => {
          if (killed) return;
          killed = true;
          process.kill(pid, 'SIGKILL');
        },
      },
    );
    expect(killed).toBe(true);
    expect(r.status).toBe('failed');
    if (r.status === 'failed') expect(r.error.kind).toBe('interrupted');
    expect(await snapshotsOf(appTags('big'))).toEqual([]);
    expect(await locks()).toHaveLength(1);
    // restic itself refuses the exclusive lock...
    const plain = await restic(target, 'check', []);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/unable to create lock/);
    // ...the runner's check unlocks first (plain `restic unlock`) and passes.
    expect(await checkRepository(target)).toEqual({ status: 'ok' });
    expect(await locks()).toEqual([]);
    const again = done(
      await backupFiles(target, { app_id: 'big', root: app, host: HOST }, { allowedRoots: [APPS] }),
    );
    expect(again.status).toBe('ok');
  });

  it('a stale exclusive lock (a check killed) is cleared by the next backup, which succeeds', async () => {
    // check --read-data throttled to 4 MB/s over the 40 MB: it holds its exclusive lock for a while.
    const run = startRestic(target, 'check', ['--read-data'], { limits: { download_kib: 4096 } });
    while ((await locks()).length === 0) await new Promise((r) => setTimeout(r, 50));
    run.child.kill('SIGKILL');
    await run.exit;
    expect(await locks()).toHaveLength(1);
    const app = path.join(APPS, 'app1');
    const r = done(
      await backupFiles(target, { app_id: '1', root: app, host: HOST }, { allowedRoots: [APPS] }),
    );
    expect(r.status).toBe('ok');
    expect(await locks()).toEqual([]);
  });

  it('a wrong password is a failed run with its cause, and never re-creates the repository', async () => {
    const wrong = { ...target, password: 'not-the-password' };
    const r = await backupFiles(
      wrong,
      { app_id: '1', root: path.join(APPS, 'app1'), host: HOST },
      { allowedRoots: [APPS] },
    );
    expect(r.status).toBe('failed');
    if (r.status === 'failed') {
      expect(r.error.kind).toBe('wrong_password');
      expect(r.error.message).toMatch(/password does not open/);
    }
    const ensured = await ensureRepository(wrong);
    expect(ensured.status === 'failed' && ensured.error.kind).toBe('wrong_password');
  });

  it('two backups of one repository run one after the other (one lane)', async () => {
    const a = await makeApp('lane-a', { 'a.txt': 'a' });
    const b = await makeApp('lane-b', { 'b.txt': 'b' });
    const pids: number[] = [];
    const overlaps: boolean[] = [];
    const onSpawn = (pid: number) => {
      // Each restic (unlock, backup) starts only once the one before has gone.
      for (const other of pids) {
        let alive = true;
        try {
          process.kill(other, 0);
        } catch {
          alive = false;
        }
        overlaps.push(alive);
      }
      pids.push(pid);
    };
    const [ra, rb] = await Promise.all([
      backupFiles(target, { app_id: 'la', root: a, host: HOST }, { allowedRoots: [APPS], onSpawn }),
      backupFiles(target, { app_id: 'lb', root: b, host: HOST }, { allowedRoots: [APPS], onSpawn }),
    ]);
    expect(done(ra).status).toBe('ok');
    expect(done(rb).status).toBe('ok');
    expect(pids).toHaveLength(2);
    expect(overlaps).toEqual([false]);
  });

  it('forget keeps the newest of each policy (group by host and tags), after a success only', async () => {
    const app = await makeApp('app-keep', { 'x.txt': 'x' });
    const other = await makeApp('app-other', { 'y.txt': 'y' });
    const runs: BackupDone[] = [];
    for (let i = 0; i < 4; i++) {
      await writeFile(path.join(app, 'x.txt'), `x${i}`);
      runs.push(
        done(
          await backupFiles(
            target,
            { app_id: 'keep', root: app, host: HOST },
            { allowedRoots: [APPS] },
          ),
        ),
      );
    }
    for (let i = 0; i < 2; i++)
      done(
        await backupFiles(
          target,
          { app_id: 'other', root: other, host: HOST },
          { allowedRoots: [APPS] },
        ),
      );
    // The same app tags from another server: its snapshots are not this server's to thin out.
    done(
      await backupFiles(
        target,
        { app_id: 'keep', root: app, host: 'other-server' },
        { allowedRoots: [APPS] },
      ),
    );
    // A backup that failed is no licence to forget anything.
    const refused = await forgetAfter(target, { status: 'failed' } as unknown as BackupDone, {
      host: HOST,
      tags: appTags('keep'),
      keep: { keep_last: 1 },
    });
    expect(refused.status).toBe('failed');
    const last = runs[3]!;
    const r = await forgetAfter(target, last, {
      host: HOST,
      tags: appTags('keep'),
      keep: { keep_last: 2 },
    });
    if (r.status !== 'ok') throw new Error(r.error.message);
    expect(r.kept_new).toBe(true);
    expect(r.kept).toHaveLength(2);
    expect(r.removed).toHaveLength(2);
    const left = await snapshotsOf(appTags('keep'));
    expect(left.map((s) => s.short_id)).toEqual(runs.slice(2).map((x) => x.summary.snapshot_id));
    expect(await snapshotsOf(appTags('other'))).toHaveLength(2);
    const elsewhere = await listSnapshots(target, { host: 'other-server' });
    expect(elsewhere.status === 'ok' && elsewhere.snapshots).toHaveLength(1);
    expect(await checkRepository(target, { read_data_subset: '1/2' })).toEqual({ status: 'ok' });
  });
});
