import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpContext } from '../../agent/ops/types';
import { backupFiles } from '../../features/backups/agentBackupFiles';
import { ensureRepository } from '../../features/backups/agentRepoMaintenance';
import { type ResticTarget, restic } from '../../features/backups/agentRestic';
import { type BackupResult, startBackup } from '../../features/backups/agentResticBackup';
import { withTargetFiles } from '../../features/backups/agentTargetFiles';
import type { BackupOutcome } from '../../features/backups/resource';
import { meterUsage } from '../../features/backups/serverCredit';
import { policySnapshots } from '../../features/backups/serverPanelRestic';
import { existingStore } from '../../features/backups/serverRunStore';
import { verifyAll } from '../../features/backups/serverVerify';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { selfSignedCert, startS3 } from '../system/support/backups-storage';
import { type LiveApp, startLiveApp } from './liveApp';
import { insertPolicy } from './backupPolicyRow';
import { addWebapp } from './serverRows';

/**
 * Runs, retention, removals, downloads and verification of backups against REAL restic on the
 * panel's own storage: the fake agent's backup ops run the agent's restic runner library on the
 * `target` the panel hands them (restic's REST protocol at the panel), so snapshots really land
 * in the panel storage, and the panel's own forget, check and dump are real.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let work: string;
let site: string;
let webappId: number;
let databaseId: number;
/** What the next database op does: the real dump into restic, or a failure. */
let dbMode: 'ok' | 'fail' = 'ok';
/** While set, the files op waits for it (a run held under way). */
let gate: Promise<void> | null = null;
const SQL = 'CREATE TABLE t (id int);\nINSERT INTO t VALUES (1),(2),(3);\n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

const withCache = (target: ResticTarget): ResticTarget => ({
  ...target,
  cache_dir: path.join(work, 'cache'),
});

function outcomeOf(result: BackupResult, started: number): BackupOutcome {
  if (result.status === 'failed')
    return {
      status: 'failed',
      snapshot_id: null,
      files: null,
      size_bytes: null,
      added_bytes: null,
      duration_ms: Date.now() - started,
      error: { kind: result.error.kind, message: result.error.message },
      forgotten: [],
    };
  return {
    status: result.status,
    snapshot_id: result.summary.snapshot_id,
    files: result.summary.total_files_processed,
    size_bytes: result.summary.total_bytes_processed,
    added_bytes: result.summary.data_added,
    duration_ms: Date.now() - started,
    error: result.warning ? { kind: result.warning.kind, message: result.warning.message } : null,
    forgotten: [],
  };
}

interface FilesArgs {
  target: ResticTarget;
  host: string;
  policy_id: number;
  app_id: number;
}
interface DbArgs {
  target: ResticTarget;
  host: string;
  policy_id: number;
  db_id: number;
  database: string;
}

/** The real runner on the target the panel gave: the site folder into the panel's storage. */
async function filesOp(args: FilesArgs, ctx: OpContext): Promise<BackupOutcome> {
  const started = Date.now();
  const target = withCache(args.target);
  if (gate) await gate;
  const made = await ensureRepository(target);
  if (made.status !== 'ok') throw new Error(made.error.message);
  const result = await backupFiles(
    target,
    {
      app_id: String(args.app_id),
      root: site,
      host: args.host,
      tags: [`policy:${args.policy_id}`],
    },
    {
      allowedRoots: [work],
      onProgress: (p) => ctx.progress(`${p.files_done} of ${p.total_files} files`, 5),
    },
  );
  ctx.progress('Saved', 8);
  return outcomeOf(result, started);
}

/** A dump streamed into restic as `<db>.sql` (as the real op's `--stdin`), or a failed dump. */
async function databaseOp(args: DbArgs, ctx: OpContext): Promise<BackupOutcome> {
  const started = Date.now();
  if (dbMode === 'fail')
    return outcomeOf(
      {
        status: 'failed',
        error: {
          kind: 'dump_failed',
          message: `The dump of ${args.database} failed, so no backup was saved: Unknown database`,
        },
      } as BackupResult,
      started,
    );
  const target = withCache(args.target);
  const made = await ensureRepository(target);
  if (made.status !== 'ok') throw new Error(made.error.message);
  ctx.progress('Dumping', 3);
  const { run, result } = startBackup(
    target,
    [
      '--stdin',
      `--stdin-filename=${args.database}.sql`,
      '--host',
      args.host,
      '--tag',
      `db:${args.db_id}`,
      '--tag',
      'type:database',
      '--tag',
      `policy:${args.policy_id}`,
    ],
    { stdin: true },
  );
  run.child.stdin!.end(SQL);
  return outcomeOf(await result, started);
}

const at = (p: string) => `/api/v1/${p}/users/${owner.id}`;
const call = (method: string, url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, ...(body ? { body } : {}) });

async function policy(
  type: 'webapp' | 'database',
  over: Partial<{
    keep_last: number;
    created_at: string;
    frequency: 'daily' | 'hourly';
    target_id: number;
  }> = {},
) {
  const stamp = new Date().toISOString();
  return insertPolicy(live.t.app.db, {
    user_id: owner.id,
    server_id: agent.server.id,
    type,
    webapp_id: type === 'webapp' ? webappId : null,
    database_id: type === 'database' ? databaseId : null,
    subject: type === 'webapp' ? 'shop' : 'shopdb',
    target_id: over.target_id ?? null,
    frequency: over.frequency ?? 'daily',
    keep_last: over.keep_last ?? 7,
    keep_daily: 0,
    keep_weekly: 0,
    keep_monthly: 0,
    gentle: 0,
    created_at: over.created_at ?? stamp,
  });
}

const runRow = (id: number) =>
  live.t.app.db
    .selectFrom('backup_runs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** Back up now, and wait for the run's end. */
async function runNow(policyId: number) {
  const res = await call('PATCH', `${at('backup-now')}?bid=${policyId}`);
  expect(res.statusCode, res.body).toBe(200);
  const { task_id, file_id } = res.json() as { task_id: number; file_id: number };
  await until(async () => !['queued', 'running'].includes((await runRow(file_id)).status));
  await until(async () => (await live.t.app.services.tasks.find(task_id))?.status !== 'running');
  return { task_id, file_id, run: await runRow(file_id) };
}

async function panelSnapshots(policyId: number) {
  const p = await live.t.app.db
    .selectFrom('backup_policies')
    .selectAll()
    .where('id', '=', policyId)
    .executeTakeFirstOrThrow();
  const store = await existingStore(live.t.app, p);
  return (await policySnapshots(store!.panel!, policyId)).map(short);
}

/** restic's short id (the summary's), to compare with the full ids it lists. */
const short = (id: string | null) => id?.slice(0, 8) ?? null;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-runs-'));
  site = path.join(work, 'site');
  fs.mkdirSync(path.join(site, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(site, 'index.html'), '<h1>shop</h1>');
  // Random bytes: a pack of data of its own (compression leaves it as large).
  fs.writeFileSync(path.join(site, 'sub', 'data.txt'), randomBytes(50_000).toString('base64'));
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    // As the real agent (agent.ts): what restic reads from files (an S3 CA, SFTP keys) is
    // written for the op only.
    'backups.files': ((args: FilesArgs, ctx: OpContext) =>
      withTargetFiles(args, (a) => filesOp(a, ctx))) as never,
    'backups.database': databaseOp as never,
    'backups.test-restore': (() => ({ ok: true, message: 'matched', files: 2, bytes: 1 })) as never,
  });
  const stamp = new Date().toISOString();
  const managed = {
    server_id: agent.server.id,
    status: 'active' as const,
    error: null,
    error_field: null,
    created_at: stamp,
    updated_at: stamp,
  };
  webappId = await addWebapp(live.t.app.db, agent.server.id, {
    name: 'shop',
    domains: ['shop.test'],
    sysUser: 'shopper',
  });
  databaseId = (
    await live.t.app.db
      .insertInto('databases')
      .values({ ...managed, name: 'shopdb', collation: 'utf8mb4_general_ci' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}, 60_000);

afterAll(async () => {
  live.disconnectAll();
  await live.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('backup runs on the panel storage (real restic)', () => {
  it('backs up now: the run ends ok with its snapshot, size, and the task shows the steps', async () => {
    const id = await policy('webapp');
    const { task_id, run } = await runNow(id);
    expect(run).toMatchObject({ status: 'ok', trigger: 'manual', error: null, removed: 0 });
    expect(run.snapshot_id).toMatch(/^[0-9a-f]{8,64}$/);
    expect(run.files).toBe(2);
    expect(Number(run.size_bytes)).toBeGreaterThanOrEqual(50_000);
    expect(run.started_at).not.toBeNull();
    const events = await live.t.app.services.tasks.events(task_id);
    expect(events.at(0)).toEqual({ event: 'Waiting to start', code: 0 });
    expect(events.map((e) => e.event)).toContain('Saved');
    expect(events.at(-1)).toEqual({ event: 'Done', code: 10 });
    expect((await live.t.app.services.tasks.find(task_id))?.kind).toBe('backup');
    expect(await panelSnapshots(id)).toEqual([short(run.snapshot_id)]);
  });

  it('a failed outcome is a failed run with its words, and no retention runs', async () => {
    const id = await policy('database', { keep_last: 1 });
    dbMode = 'ok';
    const good = await runNow(id);
    expect(good.run.status).toBe('ok');
    dbMode = 'fail';
    const bad = await runNow(id);
    expect(bad.run).toMatchObject({ status: 'failed', snapshot_id: null });
    expect(bad.run.error).toMatch(/dump of shopdb failed/);
    expect((await live.t.app.services.tasks.find(bad.task_id))?.status).toBe('failed');
    expect((await runRow(good.file_id)).removed).toBe(0);
    expect(await panelSnapshots(id)).toEqual([short(good.run.snapshot_id)]);
    dbMode = 'ok';
  });

  it('retention never removes the last good run after failures, and thins after a good one', async () => {
    const id = await policy('database', { keep_last: 1 });
    dbMode = 'ok';
    const first = await runNow(id);
    dbMode = 'fail';
    await runNow(id);
    await runNow(id);
    expect((await runRow(first.file_id)).removed).toBe(0);
    expect(await panelSnapshots(id)).toEqual([short(first.run.snapshot_id)]);
    dbMode = 'ok';
    const second = await runNow(id);
    expect(second.run.status).toBe('ok');
    expect((await runRow(first.file_id)).removed).toBe(1);
    expect(await panelSnapshots(id)).toEqual([short(second.run.snapshot_id)]);
  });

  it('two runs of one policy at once: the second is refused while the first is under way', async () => {
    const id = await policy('webapp');
    let open = () => undefined as void;
    gate = new Promise<void>((r) => (open = r));
    const first = await call('PATCH', `${at('backup-now')}?bid=${id}`);
    expect(first.statusCode).toBe(200);
    const second = await call('PATCH', `${at('backup-now')}?bid=${id}`);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/under way/);
    const { file_id } = first.json() as { file_id: number };
    await until(async () => (await runRow(file_id)).status === 'running');
    gate = null;
    open();
    await until(async () => (await runRow(file_id)).status === 'ok');
  });

  it('removes one file: its snapshot is forgotten by the panel and the row marked removed', async () => {
    const id = await policy('webapp');
    const a = await runNow(id);
    const b = await runNow(id);
    const res = await call('DELETE', `${at('remove-backups')}?sid=${id}&file_id=${a.file_id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: a.file_id });
    expect((await runRow(a.file_id)).removed).toBe(1);
    expect(await panelSnapshots(id)).toEqual([short(b.run.snapshot_id)]);
  });

  it('removes a whole backup: every snapshot forgotten, the rows gone', async () => {
    const id = await policy('webapp');
    await runNow(id);
    await runNow(id);
    const store = await existingStore(
      live.t.app,
      (await live.t.app.db
        .selectFrom('backup_policies')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst())!,
    );
    const res = await call('DELETE', at(`total-backups/${id}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id, files: 2 });
    expect(await policySnapshots(store!.panel!, id)).toEqual([]);
    const left = await live.t.app.db
      .selectFrom('backup_runs')
      .select('id')
      .where('backup_id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });

  it('downloads a database dump: the SQL, streamed as a file', async () => {
    const id = await policy('database');
    dbMode = 'ok';
    const { file_id } = await runNow(id);
    const res = await call('GET', at(`backup-files/${file_id}/download`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="shopdb-.*\.sql"/);
    expect(res.body).toBe(SQL);
  });

  it('downloads an app as a tar of its files', async () => {
    const id = await policy('webapp');
    const { file_id } = await runNow(id);
    const res = await call('GET', at(`backup-files/${file_id}/download`));
    expect(res.statusCode).toBe(200);
    const tar = path.join(work, 'site.tar');
    fs.writeFileSync(tar, res.rawPayload);
    const listed = spawnSync('tar', ['-tf', tar]).stdout.toString();
    expect(listed).toMatch(/index\.html/);
    expect(listed).toMatch(/sub\/data\.txt/);
  });

  it('restores an app into another app on another server: the op runs there, same repository', async () => {
    const id = await policy('webapp');
    const { file_id, run } = await runNow(id);
    const into = path.join(work, 'restored');
    const other = await startFakeAgent(
      live,
      owner,
      {
        'backups.restore-files': (async (args: {
          target: ResticTarget;
          snapshot: string;
          app: string;
        }) => {
          const ended = await restic(withCache(args.target), 'restore', [
            args.snapshot,
            '--target',
            into,
          ]);
          if (ended.code !== 0) throw new Error(ended.stderr);
          return { files: 2, bytes: 50_013, previous: `${args.app}.before-restore-1` };
        }) as never,
      },
      'fake-2',
    );
    const targetId = await addWebapp(live.t.app.db, other.server.id, {
      name: 'shop2',
      domains: ['shop2.test'],
      sysUser: 'shopper2',
    });
    const res = await call('PATCH', at('restore-backups'), {
      file_id,
      mode: 'new',
      to_webapp_id: targetId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { task_id } = res.json() as { task_id: number };
    await until(async () => (await live.t.app.services.tasks.find(task_id))?.status !== 'running');
    const task = await live.t.app.services.tasks.find(task_id);
    expect(task).toMatchObject({
      status: 'completed',
      kind: 'restore',
      server_id: other.server.id,
    });
    expect(other.calls.map((c) => c.name)).toEqual(['backups.restore-files']);
    expect(other.calls[0]!.args).toMatchObject({
      snapshot: run.snapshot_id,
      app: 'shop2',
      mode: 'replace',
    });
    expect(fs.readFileSync(path.join(into, 'index.html'), 'utf8')).toBe('<h1>shop</h1>');
    // A database backup does not restore into an app.
    const wrong = await call('PATCH', at('restore-backups'), {
      file_id,
      mode: 'new',
      to_database_id: databaseId,
    });
    expect(wrong.statusCode).toBe(409);
  });

  it('a replace restore keeps the previous files until the user keeps the restore', async () => {
    const id = await policy('webapp');
    const { file_id, run } = await runNow(id);
    const apps = path.join(work, 'home', 'apps');
    const kept = path.join(apps, 'shop.before-restore-20261128093000');
    // The op as on a server: the snapshot restored beside the app, the live tree moved aside.
    agent.ops['backups.restore-files'] = (async (args: {
      target: ResticTarget;
      snapshot: string;
    }) => {
      fs.mkdirSync(kept, { recursive: true });
      fs.writeFileSync(path.join(kept, 'index.html'), '<h1>before</h1>');
      const ended = await restic(withCache(args.target), 'restore', [
        args.snapshot,
        '--target',
        path.join(apps, 'shop'),
      ]);
      if (ended.code !== 0) throw new Error(ended.stderr);
      return { files: 2, bytes: 50_013, previous: kept };
    }) as never;
    agent.ops['backups.drop-previous'] = ((args: { folder: string }) => {
      const there = fs.existsSync(args.folder);
      fs.rmSync(args.folder, { recursive: true, force: true });
      return { removed: there };
    }) as never;
    const res = await call('PATCH', at('restore-backups'), { file_id, mode: 'replace' });
    expect(res.statusCode, res.body).toBe(200);
    const { task_id } = res.json() as { task_id: number };
    await until(async () => (await live.t.app.services.tasks.find(task_id))?.status !== 'running');
    const events = await live.t.app.services.tasks.events(task_id);
    expect(events.map((e) => e.event)).toContain(
      `Restored 2 files; the previous files are kept in ${kept}`,
    );
    expect(run.snapshot_id).not.toBeNull();

    // The policy's page lists the kept copy.
    const detail = (await call('GET', `/api/v1/backups/${id}/users/${owner.id}`)).json() as {
      restores: { id: number; kind: string; previous: string; state: string; run_id: number }[];
    };
    expect(detail.restores).toHaveLength(1);
    const restore = detail.restores[0]!;
    expect(restore).toMatchObject({
      kind: 'files',
      previous: kept,
      state: 'kept',
      run_id: file_id,
    });
    expect(JSON.stringify(detail.restores)).not.toContain('shopper');

    // Offline: the copy stays, and the answer says so.
    await agent.disconnect();
    const offline = await call('PATCH', at(`keep-restores/${id}`), { restore_id: restore.id });
    expect(offline.statusCode).toBe(409);
    expect(offline.json().message).toMatch(/previous files stay until it is back/);
    expect(fs.existsSync(kept)).toBe(true);
    await agent.reconnect();

    // Keeping the restore removes the previous copy through the op; the notice goes.
    const calls = agent.calls.length;
    const keep = await call('PATCH', at(`keep-restores/${id}`), { restore_id: restore.id });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json()).toMatchObject({ id: restore.id, state: 'dropped', previous: kept });
    expect(agent.calls.slice(calls)).toEqual([
      {
        name: 'backups.drop-previous',
        args: { sys_user: 'shopper', folder: kept, database: null },
      },
    ]);
    expect(fs.existsSync(kept)).toBe(false);
    expect(fs.readFileSync(path.join(apps, 'shop', 'index.html'), 'utf8')).toBe('<h1>shop</h1>');
    const after = (await call('GET', `/api/v1/backups/${id}/users/${owner.id}`)).json() as {
      restores: unknown[];
    };
    expect(after.restores).toEqual([]);
    // Again: the same answer, nothing asked of the server.
    const again = await call('PATCH', at(`keep-restores/${id}`), { restore_id: restore.id });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ state: 'dropped' });
    expect(agent.calls.length).toBe(calls + 1);
    // Another policy's id does not reach this restore.
    const other = await policy('database');
    const wrong = await call('PATCH', at(`keep-restores/${other}`), { restore_id: restore.id });
    expect(wrong.statusCode).toBe(404);
  });

  it('a run to the panel storage is refused while the account is at its credit; S3 is not limited', async () => {
    const admin = await live.t.user({ admin: true });
    const setCredit = async (gb: number) => {
      const res = await live.t.call(
        'POST',
        `/api/v1/backup-credit/users/${owner.id}?credit=${gb}`,
        {
          token: admin.token,
        },
      );
      expect(res.statusCode, res.body).toBe(200);
    };
    const id = await policy('webapp');
    expect((await runNow(id)).run.status).toBe('ok');
    // The daily metering, really: what the account's repositories hold on the panel's disk.
    await meterUsage(live.t.app);
    const credit = (await call('GET', at('backup-credit'))).json() as {
      used_bytes: number;
      credit_bytes: number;
    };
    expect(credit.used_bytes).toBeGreaterThan(50_000);
    expect(credit.credit_bytes).toBe(10 * 1024 ** 3);
    // An admin lowers the credit to under what is used: the next run never reaches the server.
    await setCredit(0.00001);
    const calls = agent.calls.length;
    const { task_id, run } = await runNow(id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(
      /^Your backup storage is full: [\d.]+ MB of 0 MB used\. Delete old backups or ask for more credit$/,
    );
    expect(run.snapshot_id).toBeNull();
    expect(agent.calls.length).toBe(calls);
    const task = await live.t.app.services.tasks.find(task_id);
    expect(task?.status).toBe('failed');
    expect((await live.t.app.services.tasks.events(task_id)).at(-1)?.event).toBe(run.error);

    // An S3 storage of the account: the run goes to the server whatever the credit.
    const s3 = await call('PATCH', at('backup-storage'), {
      kind: 's3',
      name: 'offsite',
      endpoint: 's3.example.com',
      bucket: 'my-backups/panel',
      access_key_id: 'AKIAEXAMPLE9876',
      secret_access_key: 'the secret access key',
    });
    expect(s3.statusCode, s3.body).toBe(200);
    const targetId = (s3.json() as { targets: { id: number }[] }).targets[0]!.id;
    const offsite = await policy('webapp');
    await live.t.app.db
      .updateTable('backup_policies')
      .set({ target_id: targetId })
      .where('id', '=', offsite)
      .execute();
    const real = agent.ops['backups.files']!;
    agent.ops['backups.files'] = (() => ({
      status: 'failed',
      snapshot_id: null,
      files: null,
      size_bytes: null,
      added_bytes: null,
      duration_ms: 1,
      error: { kind: 'unreachable', message: 'The storage could not be reached' },
      forgotten: [],
    })) as never;
    try {
      const sent = await runNow(offsite);
      expect(sent.run.error).toBe('The storage could not be reached');
      expect(agent.calls.at(-1)).toMatchObject({
        name: 'backups.files',
        args: { target: { repository: expect.stringMatching(/^s3:https:\/\/s3\.example\.com\//) } },
      });
    } finally {
      agent.ops['backups.files'] = real;
      await setCredit(10);
    }
  });

  it('verification marks the newest good run verified; a stale policy raises an alert', async () => {
    const fresh = await policy('webapp');
    const { file_id } = await runNow(fresh);
    const old = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const stale = await policy('webapp', { created_at: old });
    await verifyAll(live.t.app);
    expect((await runRow(file_id)).verified_at).not.toBeNull();
    const alerts = await live.t.app.db
      .selectFrom('alerts')
      .selectAll()
      .where('user_id', '=', owner.id)
      .where('kind', '=', 'task.failed')
      .execute();
    expect(alerts.some((a) => /shop \(not verified\)/.test(a.subject))).toBe(true);
    const count = alerts.length;
    // Said once per stretch: the next night says nothing new.
    await verifyAll(live.t.app);
    const again = await live.t.app.db
      .selectFrom('alerts')
      .select('id')
      .where('user_id', '=', owner.id)
      .where('kind', '=', 'task.failed')
      .execute();
    expect(again.length).toBe(count);
    const policies = await call('GET', at(`backups/${stale}`));
    expect(policies.statusCode, policies.body).toBe(200);
    expect(policies.json().health).toBe('never');
  });

  it('a damaged pack in the panel storage makes the check fail and the policy turn failing', async () => {
    const id = await policy('webapp');
    const { file_id } = await runNow(id);
    const p = (await live.t.app.db
      .selectFrom('backup_policies')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst())!;
    const store = (await existingStore(live.t.app, p))!;
    const data = path.join(store.panel!.path, 'data');
    const packs = fs
      .readdirSync(data, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
    expect(packs.length).toBeGreaterThan(0);
    // The largest pack holds the site's data: cut in half, as a disk that lost its end would.
    const largest = packs.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!;
    fs.truncateSync(largest, Math.floor(fs.statSync(largest).size / 2));
    // The structure's check finds it (reading the pack's data would too, after restic's retries).
    await verifyAll(live.t.app, { subset: null });
    const run = await runRow(file_id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/check found a problem/);
    const res = await call('GET', at(`backups/${id}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().health).toBe('failing');
  }, 120_000);
});

describe('a backup to SFTP storage', () => {
  it("hands the op the repository, the port, the account's key and the pinned host keys", async () => {
    const hostKey =
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
    const added = await call('PATCH', at('backup-storage'), {
      kind: 'sftp',
      name: 'nas',
      host: 'nas.example:2222',
      user: 'restic',
      path: '/backups',
      known_host: `# nas.example:2222 SSH-2.0-OpenSSH_9.2p1\n[nas.example]:2222 ${hostKey}\n`,
    });
    expect(added.statusCode, added.body).toBe(200);
    const targetId = (added.json().targets as { id: number; name: string }[]).find(
      (x) => x.name === 'nas',
    )!.id;
    const publicKey: string = added.json().sftp_public_key;
    const id = await policy('webapp', { target_id: targetId });
    const before = agent.ops['backups.files'];
    agent.ops['backups.files'] = () => ({
      status: 'failed',
      snapshot_id: null,
      files: null,
      size_bytes: null,
      added_bytes: null,
      duration_ms: 1,
      error: { kind: 'unreachable', message: 'The backup storage could not be reached.' },
      forgotten: [],
    });
    try {
      const { run } = await runNow(id);
      expect(run.status).toBe('failed');
      const asked = agent.calls.filter((c) => c.name === 'backups.files').at(-1)!.args as {
        target: {
          repository: string;
          sftp: { port: number; private_key: string; host_keys: string[] };
        };
      };
      expect(asked.target.repository).toBe(
        `sftp:restic@nas.example:/backups/stackdeck-${agent.server.uuid}`,
      );
      expect(asked.target.sftp).toEqual({
        port: 2222,
        private_key: expect.stringMatching(/^-----BEGIN OPENSSH PRIVATE KEY-----\n/),
        host_keys: [hostKey],
      });
      // The key it is given is the one whose public half the user authorized.
      const file = path.join(work, 'account-key');
      fs.writeFileSync(file, asked.target.sftp.private_key, { mode: 0o600 });
      const derived = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim();
      fs.rmSync(file);
      expect(derived).toBe(publicKey);
      // What the run's error says never holds the key.
      expect(JSON.stringify(run)).not.toContain('PRIVATE KEY');
    } finally {
      agent.ops['backups.files'] = before!;
      await live.t.app.db.deleteFrom('backup_runs').where('backup_id', '=', id).execute();
      await live.t.app.db.deleteFrom('backup_policies').where('id', '=', id).execute();
    }
  });
});

describe('a backup to S3 storage with its own CA', () => {
  it('runs on it with the CA the panel holds, and the panel downloads from it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-runs-s3-'));
    const tls = await selfSignedCert(dir);
    const s3 = await startS3(dir, tls, ['backups']);
    try {
      const added = await call('PATCH', at('backup-storage'), {
        kind: 's3',
        name: 'own-s3',
        endpoint: s3.endpoint.replace('https://', ''),
        bucket: 'backups/panel',
        access_key_id: s3.accessKeyId,
        secret_access_key: s3.secretAccessKey,
        ca_pem: fs.readFileSync(tls.cert, 'utf8'),
      });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.body).not.toContain('BEGIN CERTIFICATE');
      const targetId = (added.json().targets as { id: number; name: string }[]).find(
        (x) => x.name === 'own-s3',
      )!.id;
      const id = await policy('webapp', { target_id: targetId });
      const { file_id, run } = await runNow(id);
      // Without the CA, restic refuses s3rver's self-signed certificate: ok means it was handed.
      expect(run.status, run.error ?? '').toBe('ok');
      const asked = agent.calls.filter((c) => c.name === 'backups.files').at(-1)!.args as {
        target: { repository: string; cacert_pem?: string; cacert?: string };
      };
      expect(asked.target.repository).toBe(
        `s3:${s3.endpoint}/backups/panel/stackdeck-${agent.server.uuid}`,
      );
      expect(asked.target.cacert_pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(asked.target.cacert).toBeUndefined();

      const res = await call('GET', at(`backup-files/${file_id}/download`));
      expect(res.statusCode, res.body).toBe(200);
      const tar = path.join(dir, 'site.tar');
      fs.writeFileSync(tar, res.rawPayload);
      const listed = spawnSync('tar', ['-tf', tar]).stdout.toString();
      expect(listed).toMatch(/index\.html/);
      expect(listed).toMatch(/sub\/data\.txt/);
      // The panel's files for the download (the CA) are gone with the stream.
      await until(async () =>
        fs.readdirSync(os.tmpdir()).every((n) => !n.startsWith('stackdeck-storage-')),
      );
      await live.t.app.db.deleteFrom('backup_runs').where('backup_id', '=', id).execute();
      await live.t.app.db.deleteFrom('backup_policies').where('id', '=', id).execute();
    } finally {
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
