import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import type { EndedTask } from '../../server/repositories/tasks';
import { waitFor } from '../waitFor';
import { pageOf } from './harness/curl';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * A restore proven with the real consumer (issue 24): a PHP app on a sandbox server with nginx
 * and PHP-FPM is backed up through the panel's own routes into the panel's own storage, changed,
 * and restored; `curl` through nginx inside the sandbox is the client that sees its old page
 * again. The sandbox reaches the panel's restic REST endpoint as its agent reaches the panel:
 * the panel's public URL (`http://127.0.0.1:PORT`) is forwarded into the sandbox at the same
 * address, so the repository URL the panel hands the agent works there unchanged.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const APP = '/home/alice/apps/site';

const at = (p: string) => `${p}/users/${panel.uid}`;
const onServer = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

/** Tasks as they end (the panel's own end hook): a test waits for its task's end, not a time. */
const ended = new Map<number, EndedTask>();
const waiting = new Map<number, (task: EndedTask) => void>();
function endOf(taskId: number, ms = 180_000): Promise<EndedTask> {
  const done = ended.get(taskId);
  if (done) return Promise.resolve(done);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`task ${taskId} did not end in ${ms} ms`)), ms);
    waiting.set(taskId, (task) => {
      clearTimeout(timer);
      resolve(task);
    });
  });
}

/** The task as the messages panel shows it: status and steps. */
async function taskOf(taskId: number) {
  const res = await panel.api('GET', `${at('clone-events')}?id=${taskId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { status: string; events: { event: string; code: number }[] }[] })
    .data[0]!;
}

const get = (url = '/') => pageOf(sb, 'site.test', url);

/** A script as alice, the app's user (what her SSH session or an upload would do). */
const sh = async (script: string) =>
  (await sb.execOk(['bash', '-ec', script], { user: 'alice' })).stdout.trim();

/** Every entry of the app's folder with its owner, group and mode, in name order. */
const tree = async () =>
  (await sb.execOk(['find', APP, '-printf', '%P %u:%g %m\\n'])).stdout
    .split('\n')
    .filter(Boolean)
    .sort();

beforeAll(async () => {
  panel = await startPanel();
  panel.t.app.services.tasks.onEnd(async (task) => {
    ended.set(task.id, task);
    waiting.get(task.id)?.(task);
  });
  ({ sb, server } = await installedSandbox(panel, 'backups-site', ['nginx', 'php8.2-fpm']));
  const user = await panel.api('POST', onServer('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('a site restored from the panel storage answers through nginx with its old content', () => {
  let appId = 0;
  let policyId = 0;
  let fileId = 0;
  let before: string[] = [];

  it('serves version one of the app, and backs it up now into the panel storage', async () => {
    const created = await panel.api('POST', onServer('webstacks'), {
      name: 'site',
      domains: ['site.test'],
      sys_user: 'alice',
    });
    expect(created.statusCode, created.body).toBe(201);
    appId = (created.json() as { id: number }).id;
    await sh(
      `cd ${APP}/public
       printf '<?php echo "version one\\\\n";' > index.php
       printf 'about us\\n' > about.html
       mkdir -p img && printf 'logo\\n' > img/logo.txt && chmod 640 img/logo.txt`,
    );
    expect(await get()).toEqual({ status: 200, body: 'version one' });
    expect(await get('/about.html')).toEqual({ status: 200, body: 'about us' });
    before = await tree();
    expect(before).toContain('public/about.html alice:alice 644');

    const policy = await panel.api('POST', at('backups'), {
      type: 'webapp',
      server_id: server.id,
      webapp_id: appId,
    });
    expect(policy.statusCode, policy.body).toBe(201);
    policyId = (policy.json() as { id: number }).id;
    const listed = await panel.api('GET', `${at('backups')}?type=webapp`);
    expect((listed.json() as { data: { id: number; subject: string }[] }).data).toEqual([
      expect.objectContaining({ id: policyId, subject: 'site' }),
    ]);

    const now = await panel.api('PATCH', `${at('backup-now')}?bid=${policyId}`);
    expect(now.statusCode, now.body).toBe(200);
    const { task_id, file_id } = now.json() as { task_id: number; file_id: number };
    expect((await endOf(task_id)).status).toBe('completed');
    expect((await taskOf(task_id)).events.at(-1)).toEqual({ event: 'Done', code: 10 });
    // The policy's files, as its page lists them: the run, ok, with its snapshot.
    const detail = await panel.api('GET', at(`backups/${policyId}`));
    expect(detail.statusCode, detail.body).toBe(200);
    const files = (detail.json() as { files: { id: number; status: string; files: number }[] })
      .files;
    expect(files).toEqual([
      expect.objectContaining({
        id: file_id,
        status: 'ok',
        snapshot_id: expect.stringMatching(/^[0-9a-f]{8,64}$/) as string,
      }),
    ]);
    // index.php, about.html, img/logo.txt (the app's own files besides, if any).
    expect(files[0]!.files).toBeGreaterThanOrEqual(3);
    fileId = file_id;
    // The snapshot is in the panel's storage, not on the server.
    const store = await panel.t.app.db
      .selectFrom('backup_stores')
      .select(['repository_uuid', 'target_id'])
      .where('server_id', '=', server.id)
      .executeTakeFirstOrThrow();
    expect(store).toMatchObject({ target_id: null, repository_uuid: expect.any(String) });
  });

  it('version two, a file deleted: nginx serves the change', async () => {
    await sh(
      `cd ${APP}/public
       printf '<?php echo "version two\\\\n";' > index.php
       rm about.html`,
    );
    // PHP-FPM's opcache looks at a file's time again after revalidate_freq (2 s on Debian).
    await waitFor('nginx to serve version two', async () => (await get()).body === 'version two', {
      timeoutMs: 5000,
      intervalMs: 200,
    });
    // A missing file falls through to the app's index.php.
    expect((await get('/about.html')).body).toBe('version two');
  });

  it('restores the backup (replace): version one again through nginx, the deleted file back, owned by alice', async () => {
    const res = await panel.api('PATCH', at('restore-backups'), {
      file_id: fileId,
      mode: 'replace',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { task_id } = res.json() as { task_id: number };
    expect((await endOf(task_id)).status).toBe('completed');
    const task = await taskOf(task_id);
    expect(task.status).toBe('completed');
    const kept = /the previous files are kept in (\S+)$/.exec(
      task.events.map((e) => e.event).find((e) => e.startsWith('Restored ')) ?? '',
    )?.[1];
    expect(kept).toMatch(/^\/home\/alice\/apps\/site\.before-restore-\d{14}$/);

    await waitFor('nginx to serve version one', async () => (await get()).body === 'version one', {
      timeoutMs: 5000,
      intervalMs: 200,
    });
    expect(await get()).toEqual({ status: 200, body: 'version one' });
    expect(await get('/about.html')).toEqual({ status: 200, body: 'about us' });
    expect(await get('/img/logo.txt')).toEqual({ status: 200, body: 'logo' });
    // The same tree as backed up: every entry alice's, with its mode.
    expect(await tree()).toEqual(before);
    expect(await sh(`find ${APP} \\( -not -user alice -o -not -group alice \\) | wc -l`)).toBe('0');
    // The replaced version is kept beside it, alice's too.
    expect(await sh(`cat ${kept}/public/index.php`)).toBe('<?php echo "version two\\n";');
    expect(await sh(`stat -c %U ${kept}`)).toBe('alice');
  });
});
