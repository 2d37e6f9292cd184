import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * EasyPHP on a real server: the panel switches a PHP 8.2 extension for PHP-FPM with the real
 * agent in a sandbox (phpenmod/phpdismod, php-fpm8.2 -t, a reload), and a page of a web app,
 * served by nginx through PHP-FPM and fetched with `curl` inside the sandbox, says whether the
 * extension is loaded. Only PHP 8.2 is real here (Debian 12's).
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const CHECK = '<?php echo extension_loaded("calendar") ? "calendar on" : "calendar off", "\\n";';

/** The page through nginx and PHP-FPM. */
async function page(): Promise<string> {
  const res = await sb.exec(['curl', '-s', '-H', 'Host: shop.test', 'http://127.0.0.1/ext.php']);
  return res.stdout.trim();
}

/** The FPM's workers after a reload: the page says `want` within a few seconds. */
async function pageSays(want: string): Promise<string> {
  let seen = '';
  for (let i = 0; i < 30; i++) {
    seen = await page();
    if (seen === want) break;
    await sleep(300);
  }
  return seen;
}

const confd = async () =>
  (await sb.execOk(['ls', '/etc/php/8.2/fpm/conf.d'])).stdout.split('\n').filter(Boolean);

async function extensionId(name: string): Promise<number> {
  const row = await panel.t.app.db
    .selectFrom('php_extensions')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'easyphp', ['nginx', 'php8.2-fpm']));
  const user = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  const app = await panel.api('POST', path('webstacks'), {
    name: 'shop',
    domains: ['shop.test'],
    sys_user: 'alice',
  });
  expect(app.statusCode, app.body).toBe(201);
  expect(app.json()).toMatchObject({ status: 'active' });
  await sb.execOk(['runuser', '-u', 'alice', '--', 'tee', '/home/alice/apps/shop/public/ext.php'], {
    input: CHECK,
  });
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('PHP extensions on a sandbox server', () => {
  it("reads the server's PHP versions and the extensions' state on 8.2", async () => {
    const versions = await panel.api('GET', path('easyphp'));
    expect(versions.statusCode, versions.body).toBe(200);
    expect(versions.json().data).toContainEqual(
      expect.objectContaining({ version: '8.2', running: true }),
    );
    const res = await panel.api('GET', path('easyphp/8.2'));
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { name: string; available: boolean; enabled: boolean }[];
    expect(data.find((e) => e.name === 'calendar')).toMatchObject({
      available: true,
      enabled: true,
    });
    // Not installed on the sandbox hosts (phpMyAdmin's package brings gd, nothing brings soap).
    expect(data.find((e) => e.name === 'soap')).toMatchObject({ available: false, enabled: false });
    expect(await page()).toBe('calendar on');
  });

  it('disables calendar for PHP-FPM: the page served through it has it off, the CLI keeps it', async () => {
    const id = await extensionId('calendar');
    const res = await panel.api('PATCH', `${path('easyphp/8.2')}?disable=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'calendar', enabled: false, available: true });
    expect(await confd()).not.toContain('20-calendar.ini');
    expect(await pageSays('calendar off')).toBe('calendar off');
    expect((await sb.execOk(['php8.2', '-m'])).stdout.split('\n')).toContain('calendar');
    const state = await panel.api('GET', path('easyphp/8.2'));
    const calendar = (state.json().data as { name: string }[]).find((e) => e.name === 'calendar');
    expect(calendar).toMatchObject({ enabled: false });
  }, 60_000);

  it('enables it again: on for the page', async () => {
    const id = await extensionId('calendar');
    const res = await panel.api('PATCH', `${path('easyphp/8.2')}?enable=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ enabled: true });
    expect(await confd()).toContain('20-calendar.ini');
    expect(await pageSays('calendar on')).toBe('calendar on');
  }, 60_000);

  it('refuses an extension the server lacks, naming the package that provides it', async () => {
    const res = await panel.api(
      'PATCH',
      `${path('easyphp/8.2')}?enable=${await extensionId('soap')}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.enable).toBe(
      'SOAP (soap) is not installed for PHP 8.2 on this server: the php8.2-soap package provides it',
    );
  });

  it('undoes an extension PHP-FPM cannot load and says why, the FPM still serving', async () => {
    await sb.execOk(['tee', '/etc/php/8.2/mods-available/broken_ext.ini'], {
      input: '; priority=20\nextension=broken_ext_missing.so\n',
    });
    const made = await panel.t.call('POST', '/api/v1/admin/easyphp', {
      token: (await panel.t.user({ admin: true })).token,
      body: { name: 'broken_ext', label: 'Broken' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await panel.api('PATCH', `${path('easyphp/8.2')}?enable=${made.json().id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(
      /PHP-FPM 8\.2 did not load broken_ext: .*broken_ext_missing\.so/s,
    );
    expect(res.json().message).toMatch(/the change was undone$/);
    expect((await confd()).some((f) => f.endsWith('-broken_ext.ini'))).toBe(false);
    expect(await page()).toBe('calendar on');
  }, 60_000);
});
