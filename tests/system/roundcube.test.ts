import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pinRelease, serveRoundcube } from './harness/releaseArchives';

/**
 * Roundcube's one-click install on a real server: Debian's Roundcube 1.6.5 as the release
 * (see the harness), its schema loaded with the app's database account, and its sign-in page
 * answering through nginx with a working session (a login token).
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'roundcube', ['nginx', 'php8.2-fpm', 'mariadb']));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'mailweb',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  await pinRelease(panel, 'roundcube', '1.6.5', await serveRoundcube(sb, 18773));
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

async function settled(taskId: number) {
  for (let i = 0; i < 600; i++) {
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (JSON.parse(res.body) as { data: { status: string; events: unknown[] }[] })
      .data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the install did not end');
}

describe('Roundcube one-click install', () => {
  it('installs Roundcube: its sign-in page answers through nginx', async () => {
    const res = await panel.api('POST', at('roundcube'), {
      name: 'webmail',
      domains: ['mail.test'],
      sys_user: 'mailweb',
      product_name: 'Stackdeck Mail',
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(JSON.parse(res.body)).toMatchObject({ login: null });
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');

    const page = await sb.execOk([
      'curl',
      '-s',
      '-w',
      '\n%{http_code}',
      '--resolve',
      'mail.test:80:127.0.0.1',
      'http://mail.test/',
    ]);
    expect(page.stdout).toMatch(/200$/);
    expect(page.stdout).toContain('Stackdeck Mail');
    expect(page.stdout).toMatch(/name="_token" value="[A-Za-z0-9]+"/);
    expect(page.stdout).toContain('name="_user"');

    // Its tables are in its own database, made with its own account.
    const tables = await sb.execOk(['mariadb', '-N', '-e', 'SHOW TABLES FROM rc_webmail']);
    expect(tables.stdout).toContain('users');
    expect(tables.stdout).toContain('session');
    // The config is the app user's, not for others to read; the installer is off.
    const conf = await sb.execOk([
      'stat',
      '-c',
      '%U %a',
      '/home/mailweb/apps/webmail/config/config.inc.php',
    ]);
    expect(conf.stdout.trim()).toBe('mailweb 640');
    const installer = await sb.exec([
      'curl',
      '-s',
      '--resolve',
      'mail.test:80:127.0.0.1',
      'http://mail.test/installer/index.php',
    ]);
    expect(installer.stdout).not.toContain('Roundcube Webmail Installer');
  }, 300_000);
});
