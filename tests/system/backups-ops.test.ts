import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpArgs, OpName } from '../../resources/agent/ops';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * The backups ops (issue 24) on a real server through the real agent: restic 0.14 with a local
 * repository inside the sandbox and its MariaDB. An app folder backed up, then restored whole
 * (swapped in, the previous tree kept and dropped) and one path at a time; a database backed up,
 * changed and restored table by table (the previous one kept); a failing dump leaving no
 * snapshot; check, test restores and forget.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const target = { repository: '/var/backups/test-repo', password: 'a test repository password' };
const APP = '/home/alice/apps/site';

const call = <N extends OpName>(
  op: N,
  args: OpArgs<N>,
  events?: { event: string; code: number }[],
) =>
  panel.t.app.agents.call(server.id, op, args, {
    ...(events ? { onProgress: (p: { event: string; code: number }) => events.push(p) } : {}),
  });

/** A script as alice (a root shell in the sandbox takes seconds to start; alice's does not). */
const sh = async (script: string) =>
  (await sb.execOk(['bash', '-ec', script], { user: 'alice' })).stdout.trim();
const db = async (query: string, database?: string) =>
  (
    await sb.execOk(
      ['mariadb', '--batch', '--raw', '--skip-column-names', ...(database ? [database] : [])],
      { input: query },
    )
  ).stdout.trim();
/** The repository's snapshot ids, by restic itself. */
const snapshots = async () => {
  const res = await sb.execOk(['restic', '--json', '--no-cache', 'snapshots'], {
    env: { RESTIC_REPOSITORY: target.repository, RESTIC_PASSWORD: target.password },
  });
  return (JSON.parse(res.stdout) as { short_id: string }[]).map((s) => s.short_id);
};

const filesArgs = (extra: Record<string, unknown> = {}) => ({
  target,
  host: server.uuid,
  policy_id: 1,
  app_id: 7,
  sys_user: 'alice',
  app: 'site',
  excludes: ['cache'],
  retention: { keep_last: 5 },
  gentle: true,
  upload_limit_kib: null,
  ...extra,
});
const dbArgs = (database: string) => ({
  target,
  host: server.uuid,
  policy_id: 2,
  db_id: 9,
  database,
  retention: null,
  gentle: false,
  upload_limit_kib: null,
});

let filesSnapshot = '';
let dbSnapshot = '';

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'backups', ['mariadb']));
  const res = await panel.api('POST', `sysusers/servers/${server.id}/users/${panel.uid}`, {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(res.statusCode, res.body).toBe(201);
  await sh(
    `mkdir -p ${APP}/public/sub ${APP}/cache
     echo 'version one' > ${APP}/public/index.html
     echo 'first a' > ${APP}/public/sub/a.txt
     echo 'first b' > ${APP}/public/sub/b.txt
     echo glob > '${APP}/public/a[1]*.txt'
     echo plain > ${APP}/public/a1.txt
     head -c 2000000 /dev/urandom > ${APP}/public/big.bin
     echo cached > ${APP}/cache/page.html
     chmod 750 ${APP}`,
  );
  await db(
    `CREATE DATABASE shop;
     CREATE TABLE shop.items (id INT PRIMARY KEY, name VARCHAR(40)) ENGINE=InnoDB;
     INSERT INTO shop.items VALUES (1, 'apple'), (2, 'pear'), (3, 'plum');
     CREATE TABLE shop.orders (id INT PRIMARY KEY, item INT);
     INSERT INTO shop.orders VALUES (10, 1);
     CREATE VIEW shop.names AS SELECT name FROM shop.items;`,
  );
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('backups.files and restore-files', () => {
  it('backs up the app folder (repository created, excludes, tags, progress)', async () => {
    const events: { event: string; code: number }[] = [];
    const out = await call('backups.files', filesArgs(), events);
    expect(out).toMatchObject({ status: 'ok', error: null, forgotten: [] });
    expect(out.snapshot_id).toMatch(/^[0-9a-f]{8}$/);
    // index, a, b, a[1]*, a1, big (cache excluded).
    expect(out.files).toBe(6);
    expect(out.size_bytes).toBeGreaterThan(2_000_000);
    expect(events[0]).toMatchObject({ event: 'Opening the backup storage', code: 0 });
    for (const e of events) expect(e.code).toBeLessThanOrEqual(9);
    expect(events.map((e) => e.event)).toContainEqual(
      expect.stringMatching(/^Backing up: [\d,]+ files, [\d.,]+ MB( of [\d.,]+ MB)?$/),
    );
    filesSnapshot = out.snapshot_id!;
    const tags = await sb.execOk(['restic', '--json', '--no-cache', 'snapshots'], {
      env: { RESTIC_REPOSITORY: target.repository, RESTIC_PASSWORD: target.password },
    });
    expect(JSON.parse(tags.stdout)).toEqual([
      expect.objectContaining({
        short_id: filesSnapshot,
        hostname: server.uuid,
        tags: ['app:7', 'type:webapp', 'policy:1'],
      }),
    ]);
  }, 120_000);

  it('applies retention after an ok run: only the newest kept', async () => {
    const out = await call('backups.files', filesArgs({ retention: { keep_last: 1 } }));
    expect(out.status).toBe('ok');
    expect(out.forgotten).toEqual([filesSnapshot]);
    filesSnapshot = out.snapshot_id!;
    expect(await snapshots()).toEqual([filesSnapshot]);
  }, 120_000);

  it('restores the whole app: swapped in, owned by the user, the previous tree kept', async () => {
    await sh(
      `echo 'version two' > ${APP}/public/index.html; rm ${APP}/public/sub/a.txt; echo new > ${APP}/public/new.txt`,
    );
    const events: { event: string; code: number }[] = [];
    const out = await call(
      'backups.restore-files',
      {
        target,
        snapshot: filesSnapshot,
        mode: 'replace',
        sys_user: 'alice',
        app: 'site',
        path: null,
      },
      events,
    );
    expect(out.previous).toMatch(/^\/home\/alice\/apps\/site\.before-restore-\d{14}$/);
    expect(out.files).toBe(8);
    expect(events.at(-1)).toMatchObject({ event: 'Files restored', code: 10 });
    expect(await sh(`cat ${APP}/public/index.html ${APP}/public/sub/a.txt`)).toBe(
      'version one\nfirst a',
    );
    expect(await sh(`test -e ${APP}/public/new.txt && echo there || echo gone`)).toBe('gone');
    expect(await sh(`cat ${out.previous}/public/index.html`)).toBe('version two');
    expect(await sh(`find ${APP} -not -user alice -o -not -group alice | wc -l`)).toBe('0');
    expect(await sh(`stat -c %a ${APP}`)).toBe('750');
    expect(await sh(`ls -a /home/alice/apps | grep -c restoring || true`)).toBe('0');
    // restic (root) restored into a folder only root enters, never into the home; nothing is
    // left there, and the home holds nothing of root's.
    expect(await sh('stat -c %a /var/lib/stackdeck-restore')).toBe('711');
    expect(await sh('ls -A /var/lib/stackdeck-restore | wc -l')).toBe('0');
    expect(await sh('find /home/alice -user root | wc -l')).toBe('0');
    // A folder that is not a kept one is refused; the kept one goes.
    await expect(
      call('backups.drop-previous', { sys_user: 'alice', folder: APP, database: null }),
    ).rejects.toThrow(/not a folder a restore kept/);
    await expect(
      call('backups.drop-previous', {
        sys_user: 'alice',
        folder: `/home/alice/../alice/apps/x.before-restore-20260101000000`,
        database: null,
      }),
    ).rejects.toThrow(/not a folder a restore kept/);
    expect(
      await call('backups.drop-previous', {
        sys_user: 'alice',
        folder: out.previous,
        database: null,
      }),
    ).toEqual({ removed: true });
    expect(await sh(`test -e ${out.previous} && echo there || echo gone`)).toBe('gone');
  }, 120_000);

  it('restores one path, keeping the one it replaces; a path not in the backup fails', async () => {
    await sh(`echo 'changed b' > ${APP}/public/sub/b.txt`);
    const args = {
      target,
      snapshot: filesSnapshot,
      mode: 'path' as const,
      sys_user: 'alice',
      app: 'site',
    };
    const out = await call('backups.restore-files', { ...args, path: 'public/sub/b.txt' });
    expect(out).toEqual({
      files: 1,
      bytes: 8,
      previous: expect.stringMatching(/\/public\/sub\/b\.txt\.before-restore-\d{14}$/) as string,
    });
    expect(await sh(`cat ${APP}/public/sub/b.txt`)).toBe('first b');
    expect(await sh(`cat ${out.previous}`)).toBe('changed b');
    expect(await sh(`stat -c %U ${APP}/public/sub/b.txt`)).toBe('alice');
    // A whole folder that is gone comes back, with nothing to keep.
    await sh(`rm -r ${APP}/public/sub`);
    const folder = await call('backups.restore-files', { ...args, path: 'public/sub/' });
    expect(folder).toEqual({ files: 2, bytes: 16, previous: null });
    expect(await sh(`cat ${APP}/public/sub/a.txt`)).toBe('first a');
    // A name with glob characters restores that file only (not a1.txt, which the glob matches).
    await sh(`echo changed > '${APP}/public/a[1]*.txt'; echo changed > ${APP}/public/a1.txt`);
    const glob = await call('backups.restore-files', { ...args, path: 'public/a[1]*.txt' });
    expect(glob).toMatchObject({ files: 1, bytes: 5 });
    expect(await sh(`cat '${APP}/public/a[1]*.txt' ${APP}/public/a1.txt`)).toBe('glob\nchanged');
    await expect(
      call('backups.restore-files', { ...args, path: 'public/nope.txt' }),
    ).rejects.toThrow(/public\/nope\.txt is not in this backup/);
    await expect(call('backups.restore-files', { ...args, path: '../../etc' })).rejects.toThrow(
      /without \.\./,
    );
    expect(await sh(`ls -a /home/alice | grep -c stackdeck-restore || true`)).toBe('0');
  }, 120_000);

  it('refuses an app folder that is a link out of the home', async () => {
    await sh(`ln -s /etc /home/alice/apps/linked`);
    await expect(call('backups.files', filesArgs({ app: 'linked' }))).rejects.toThrow(/is a link/);
  });
});

describe('backups.database and restore-database', () => {
  it('backs up a database; a dump that fails leaves no snapshot', async () => {
    const out = await call('backups.database', dbArgs('shop'));
    expect(out).toMatchObject({ status: 'ok', error: null });
    dbSnapshot = out.snapshot_id!;
    const before = await snapshots();
    const bad = await call('backups.database', dbArgs('nosuchdb'));
    expect(bad).toMatchObject({ status: 'failed', snapshot_id: null });
    expect(bad.error).toMatchObject({ kind: 'dump_failed' });
    expect(bad.error!.message).toMatch(/nosuchdb/);
    expect(await snapshots()).toEqual(before);
  }, 120_000);

  it('restores into a new database and swaps the tables in, the previous kept', async () => {
    await db(
      `UPDATE shop.items SET name = 'rotten' WHERE id = 1; DELETE FROM shop.items WHERE id = 3;
       CREATE TABLE shop.extra (x INT); INSERT INTO shop.extra VALUES (1);`,
    );
    const out = await call('backups.restore-database', {
      target,
      snapshot: dbSnapshot,
      source: 'shop',
      database: 'shop',
    });
    expect(out.tables).toBe(2);
    expect(out.previous).toMatch(/^shop_before_\d{14}$/);
    expect(await db('SELECT id, name FROM items ORDER BY id', 'shop')).toBe(
      '1\tapple\n2\tpear\n3\tplum',
    );
    expect(await db('SELECT COUNT(*) FROM names', 'shop')).toBe('3');
    expect(await db("SHOW TABLES LIKE 'extra'", 'shop')).toBe('');
    expect(await db('SELECT id, name FROM items ORDER BY id', out.previous!)).toBe(
      '1\trotten\n2\tpear',
    );
    expect(await db('SELECT x FROM extra', out.previous!)).toBe('1');
    expect(await db("SHOW DATABASES LIKE 'shop\\_r%'")).toBe('');
    await expect(
      call('backups.drop-previous', { sys_user: null, folder: null, database: 'shop' }),
    ).rejects.toThrow(/not a database a restore kept/);
    expect(
      await call('backups.drop-previous', { sys_user: null, folder: null, database: out.previous }),
    ).toEqual({ removed: true });
    expect(await db(`SHOW DATABASES LIKE '${out.previous}'`)).toBe('');
    // A snapshot without the dump: the live database untouched, nothing left behind.
    await expect(
      call('backups.restore-database', {
        target,
        snapshot: filesSnapshot,
        source: 'shop',
        database: 'shop',
      }),
    ).rejects.toThrow(/The restore failed, shop was left as it was/);
    expect(await db('SELECT COUNT(*) FROM items', 'shop')).toBe('3');
    expect(await db("SHOW DATABASES LIKE 'shop\\_%'")).toBe('');
  }, 120_000);
});

describe('backups.check, test-restore and forget', () => {
  it('checks the repository, reading a part of the data', async () => {
    expect(await call('backups.check', { target, read_data_subset: null })).toEqual({
      ok: true,
      message: 'No errors found.',
    });
    expect(await call('backups.check', { target, read_data_subset: '1/2' })).toMatchObject({
      ok: true,
    });
  }, 120_000);

  it('test-restores files and a database into scratch space and removes it', async () => {
    const files = await call('backups.test-restore', {
      target,
      snapshot: filesSnapshot,
      type: 'webapp',
      source: null,
    });
    expect(files).toMatchObject({ ok: true, files: 8 });
    expect(files.bytes).toBeGreaterThan(2_000_000);
    const database = await call('backups.test-restore', {
      target,
      snapshot: dbSnapshot,
      type: 'database',
      source: 'shop',
    });
    // Its two tables and the view.
    expect(database).toMatchObject({ ok: true, files: 3 });
    expect(await sh('ls -d /var/tmp/stackdeck-restore-test-* 2>/dev/null | wc -l')).toBe('0');
    expect(await db("SHOW DATABASES LIKE 'sd\\_test\\_restore\\_%'")).toBe('');
  }, 120_000);

  it('forgets snapshots by id and prunes', async () => {
    expect(await call('backups.forget', { target, snapshots: [dbSnapshot] })).toEqual({
      removed: [dbSnapshot],
    });
    expect(await snapshots()).toEqual([filesSnapshot]);
  }, 120_000);

  it('says a wrong password in words, as a failed outcome', async () => {
    const out = await call('backups.files', {
      ...filesArgs(),
      target: { ...target, password: 'not the repository password' },
    });
    expect(out, JSON.stringify(out)).toMatchObject({
      status: 'failed',
      error: { kind: 'wrong_password' },
    });
  }, 60_000);

  it('a storage whose disk fills up mid-run: a failed run that says so, and no snapshot', async () => {
    // A 1 MB disk (a tmpfs in the sandbox's own mount namespace) under the app's 2 MB of random
    // bytes: restic writes the repository's config and keys, then runs out of space.
    const full = '/var/backups/full';
    await sb.execOk(['bash', '-ec', `mkdir -p ${full} && mount -t tmpfs -o size=1m tmpfs ${full}`]);
    try {
      const small = { repository: `${full}/repo`, password: 'a repository on a small disk' };
      const out = await call('backups.files', { ...filesArgs(), target: small, retention: null });
      expect(out, JSON.stringify(out)).toMatchObject({
        status: 'failed',
        snapshot_id: null,
        error: { kind: 'disk_full', message: 'The backup storage is full.' },
      });
      const listed = await sb.exec(['restic', '--json', '--no-cache', 'snapshots'], {
        env: { RESTIC_REPOSITORY: small.repository, RESTIC_PASSWORD: small.password },
      });
      expect(listed.stdout.trim()).toBe('[]');
    } finally {
      await sb.execOk(['umount', full]);
    }
  }, 120_000);
});
