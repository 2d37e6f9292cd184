import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * Cron jobs on a real server: the panel's API drives the real agent in a sandbox (with its own
 * cron daemon), and the sandbox's own programs check the outcome: `crontab -l -u`, the file a
 * job writes when cron really runs it, and its owner.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const crontab = async (user: string) => (await sb.exec(['crontab', '-l', '-u', user])).stdout;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'cron', ['cron']));
  const user = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  // alice's own line, which the panel must keep.
  await sb.execOk(['crontab', '-u', 'alice', '-'], { input: '# mine\n0 1 * * * /bin/true\n' });
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('cron jobs on a sandbox server', () => {
  it("runs a job as its user with % passed through, next to the user's own lines", async () => {
    const res = await panel.api('POST', path('cronjobs'), {
      label: 'stamp',
      sys_user: 'alice',
      schedule: '* * * * *',
      command: 'date +%s > /home/alice/cron-ran',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'active', schedule_text: 'Every minute' });
    const tab = await crontab('alice');
    expect(tab.startsWith('# mine\n0 1 * * * /bin/true\n')).toBe(true);
    expect(tab).toContain('* * * * * date +\\%s > /home/alice/cron-ran');
    // cron runs it within the next minute: the file holds a time stamp and belongs to alice.
    const deadline = Date.now() + 75_000;
    let stat = '';
    while (Date.now() < deadline) {
      stat = (await sb.exec(['stat', '-c', '%U', '/home/alice/cron-ran'])).stdout.trim();
      if (stat) break;
      await sleep(1000);
    }
    expect(stat).toBe('alice');
    expect((await sb.execOk(['cat', '/home/alice/cron-ran'])).stdout.trim()).toMatch(/^\d{10}$/);
  }, 120_000);

  it('runs a job now as its user, and pauses it out of the crontab', async () => {
    const made = await panel.api('POST', path('cronjobs'), {
      label: 'whoami',
      sys_user: 'alice',
      schedule: '@hourly',
      command: 'id -un; pwd; echo 100%',
    });
    const { id } = made.json();
    const run = await panel.api('POST', path(`cronjobs/${id}/run`));
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({ code: 0, timed_out: false });
    expect(run.json().output).toBe('alice\n/home/alice\n100%\n');
    const paused = await panel.api('PUT', path(`cronjobs/${id}`), {
      label: 'whoami',
      sys_user: 'alice',
      schedule: '@hourly',
      command: 'id -un; pwd; echo 100%',
      enabled: false,
    });
    expect(paused.json()).toMatchObject({ status: 'active', enabled: false });
    expect(await crontab('alice')).not.toContain(`# stackdeck:job ${id}\n`);
  });

  it('lands 20 jobs created at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        panel.api('POST', path('cronjobs'), {
          label: `batch-${i}`,
          sys_user: 'root',
          schedule: '@daily',
          command: `echo ${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const tab = await crontab('root');
    for (const r of results) expect(tab).toContain(`# stackdeck:job ${r.json().id}\n`);
  });

  it('removes a job and reads back drift made by hand', async () => {
    const list = await panel.api('GET', `${path('cronjobs')}?sys_user=root&perPage=100`);
    const [first, second] = list.json().data as { id: number }[];
    const del = await panel.api('DELETE', path(`cronjobs/${first!.id}`));
    expect(del.json()).toEqual({ id: first!.id, status: 'deleted' });
    expect(await crontab('root')).not.toContain(`# stackdeck:job ${first!.id}\n`);

    // Someone empties root's crontab by hand: the read-back says the jobs are missing.
    await sb.execOk(['crontab', '-r', '-u', 'root']);
    const synced = await panel.api('GET', `${path('cronjobs')}?sys_user=root&sync=true`);
    const row = (synced.json().data as { id: number; drift: string }[]).find(
      (j) => j.id === second!.id,
    );
    expect(row?.drift).toBe('missing');
    // Saving it again puts it back.
    const put = await panel.api('PUT', path(`cronjobs/${second!.id}`), {
      label: 'restored',
      sys_user: 'root',
      schedule: '@daily',
      command: 'echo restored',
    });
    expect(put.json().status).toBe('active');
    expect(await crontab('root')).toContain('@daily echo restored');
  });
});
