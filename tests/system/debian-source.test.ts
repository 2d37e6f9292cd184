import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * The Debian source on a real server, without internet: a fresh panel's WordPress default is
 * Debian's package; the agent copies it into the app as the app's user (links followed, no
 * link back into /etc or /var/lib), WordPress's own installer runs on the copy, and nginx
 * serves the site.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'debsrc', ['nginx', 'php8.2-fpm', 'mariadb']));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'debuser',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

async function settled(taskId: number) {
  for (let i = 0; i < 600; i++) {
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (
      JSON.parse(res.body) as {
        data: { status: string; events: { event: string; code: number }[] }[];
      }
    ).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the install did not end');
}

describe('WordPress from Debian’s package', () => {
  it('installs from the fresh panel’s default source: the site answers, the files are the app’s', async () => {
    const res = await panel.api('POST', at('wordpress'), {
      name: 'debblog',
      domains: ['debblog.test'],
      sys_user: 'debuser',
      title: 'Debian Source Blog',
      admin_user: 'editor1',
      admin_email: 'editor@example.com',
    });
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    const events = task.events.map((e) => e.event);
    expect(events).toContain('Copying WordPress from Debian’s package');
    expect(events.join('\n')).not.toMatch(/Downloading/);

    const home = await sb.execOk([
      'curl',
      '-s',
      '--resolve',
      'debblog.test:80:127.0.0.1',
      '-w',
      '\n%{http_code}',
      'http://debblog.test/',
    ]);
    expect(home.stdout).toMatch(/200$/);
    expect(home.stdout).toContain('Debian Source Blog');
    expect(home.stdout).toContain('content="WordPress 6.1.9"');

    const root = '/home/debuser/apps/debblog/public';
    // Self-contained: no link left, everything the app user's.
    const links = await sb.execOk(['find', root, '-type', 'l']);
    expect(links.stdout.trim()).toBe('');
    const others = await sb.execOk(['find', root, '!', '-user', 'debuser']);
    expect(others.stdout.trim()).toBe('');
    expect((await sb.execOk(['stat', '-c', '%U %a', `${root}/wp-config.php`])).stdout.trim()).toBe(
      'debuser 640',
    );
  }, 300_000);
});
