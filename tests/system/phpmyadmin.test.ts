import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pinRelease, servePhpMyAdmin } from './harness/releaseArchives';
import { waitFor } from '../waitFor';

/**
 * phpMyAdmin as a web app and its one-time sign-in link on a real server: Debian's phpMyAdmin
 * built into a release archive (see the harness), installed with the one-click installer
 * (release.fetch, then pma.configure), then opened with `curl` through nginx as a browser would (cookie jar, the
 * redirect followed, the app's domain on the sandbox's loopback).
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let dbUserId = 0;
const DOMAIN = 'pma.test';
const APP_DIR = '/home/pmauser/apps/pma';
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

/** `curl` inside the sandbox to nginx on its loopback, with a cookie jar of its own. */
async function browse(jar: string, url: string, more: string[] = []) {
  const res = await sb.execOk([
    'curl',
    '-s',
    '-L',
    '--resolve',
    `${DOMAIN}:80:127.0.0.1`,
    '-b',
    jar,
    '-c',
    jar,
    '-w',
    '\n%{http_code} %{url_effective}',
    ...more,
    url,
  ]);
  const lines = res.stdout.split('\n');
  const [code, effective] = lines.pop()!.split(' ');
  return { status: Number(code), url: effective!, body: lines.join('\n') };
}

const tempAccounts = async () =>
  (
    await sb.execOk([
      'mariadb',
      '-N',
      '-e',
      "SELECT User FROM mysql.user WHERE User LIKE 'sdsso\\_%' ORDER BY User",
    ])
  ).stdout
    .split('\n')
    .filter(Boolean);

const signon = (ttl: number, accountTtl: number) =>
  panel.t.app.agents.call(server.id, 'pma.signon', {
    user: 'pmauser',
    app: 'pma',
    web_root: 'public',
    db_user: 'shop_app',
    ttl,
    account_ttl: accountTtl,
  });

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'pma', ['nginx', 'php8.2-fpm', 'mariadb']));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'pmauser',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  // The one-click installer: the app, the release fetched and checked, pma.configure.
  await pinRelease(panel, 'phpmyadmin', '5.2.1', await servePhpMyAdmin(sb, 18771));
  const installed = await panel.api('POST', at('phpmyadmin'), {
    name: 'pma',
    domains: [DOMAIN],
    sys_user: 'pmauser',
  });
  expect(installed.statusCode, installed.body).toBe(202);
  const taskId = (installed.json() as { task_id: number }).task_id;
  let task = { status: 'running', events: [] as unknown[] };
  for (let i = 0; i < 600 && task.status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    task = (res.json() as { data: (typeof task)[] }).data[0]!;
  }
  expect(task.status, JSON.stringify(task.events)).toBe('completed');

  for (const name of ['shop', 'other_db']) {
    const db = await panel.api('POST', at('databases'), { name });
    expect(db.statusCode, db.body).toBe(201);
  }
  const shop = (
    (await panel.api('GET', at('databases'))).json() as { data: { id: number; name: string }[] }
  ).data.find((d) => d.name === 'shop')!;
  const dbUser = await panel.api('POST', at('dbusers'), {
    name: 'shop_app',
    password: 'a long database password 1',
    databases: [shop.id],
  });
  expect(dbUser.statusCode, dbUser.body).toBe(201);
  dbUserId = (dbUser.json() as { id: number }).id;
}, 400_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('phpMyAdmin web app and its one-time sign-in', () => {
  it('configures the app: its own config as the app user, the signon script in the web root', async () => {
    const done = await panel.t.app.agents.call(server.id, 'pma.configure', {
      user: 'pmauser',
      app: 'pma',
      web_root: 'public',
    });
    expect(done).toEqual({ version: '5.2.1', config: `${APP_DIR}/.stackdeck-pma/config.inc.php` });
    const modes = await sb.execOk([
      'stat',
      '-c',
      '%U %a %n',
      `${APP_DIR}/.stackdeck-pma/config.inc.php`,
      `${APP_DIR}/.stackdeck-pma`,
      `${APP_DIR}/.stackdeck-pma/sso`,
      `${APP_DIR}/public/stackdeck-sso.php`,
    ]);
    expect(modes.stdout.trim().split('\n')).toEqual([
      `pmauser 640 ${APP_DIR}/.stackdeck-pma/config.inc.php`,
      `pmauser 700 ${APP_DIR}/.stackdeck-pma`,
      `pmauser 700 ${APP_DIR}/.stackdeck-pma/sso`,
      `pmauser 640 ${APP_DIR}/public/stackdeck-sso.php`,
    ]);
    const vendor = await sb.execOk(['cat', `${APP_DIR}/public/libraries/vendor_config.php`]);
    expect(vendor.stdout).toContain(`'configFile' => '${APP_DIR}/.stackdeck-pma/config.inc.php',`);
    expect(vendor.stdout).not.toContain('/etc/phpmyadmin');
    // A fresh secret each time: configured twice, two secrets.
    const secret = async () =>
      /hex2bin\('([0-9a-f]{64})'\)/.exec(
        (await sb.execOk(['cat', `${APP_DIR}/.stackdeck-pma/config.inc.php`])).stdout,
      )?.[1];
    const first = await secret();
    await panel.t.app.agents.call(server.id, 'pma.configure', {
      user: 'pmauser',
      app: 'pma',
      web_root: 'public',
    });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await secret()).not.toBe(first);
  }, 120_000);

  it('a normal cookie login still answers, without a token', async () => {
    const page = await browse('/tmp/plain.jar', `http://${DOMAIN}/index.php`);
    expect(page.status, page.body.slice(-2000)).toBe(200);
    expect(page.body).toContain('name="pma_username"');
    // ...and signs in with the database user's own password.
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
    expect(token).toBeTruthy();
    const signedIn = await browse('/tmp/plain.jar', `http://${DOMAIN}/index.php?route=/`, [
      '--data-urlencode',
      'pma_username=shop_app',
      '--data-urlencode',
      'pma_password=a long database password 1',
      '--data-urlencode',
      'server=1',
      '--data-urlencode',
      `token=${token!}`,
    ]);
    expect(signedIn.status).toBe(200);
    const list = await browse(
      '/tmp/plain.jar',
      `http://${DOMAIN}/index.php?route=/server/databases`,
    );
    expect(list.body).toContain('data-filter-row="SHOP"');
    expect(signedIn.body).toContain('shop_app@localhost');
    expect(list.body).not.toContain('name="pma_username"');
  }, 120_000);

  it('the link opens phpMyAdmin signed in with the user’s databases, once', async () => {
    const res = await panel.api('GET', `${at('phpmyadmin-login')}?dbuser=${dbUserId}`);
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json() as { url: string; expires_at: string };
    expect(url).toMatch(/^http:\/\/pma\.test\/stackdeck-sso\.php\?t=[A-Za-z0-9_-]{43}$/);
    expect(url).not.toContain('a long database password');

    const opened = await browse('/tmp/sso.jar', url);
    expect(opened.status, opened.body.slice(-2000)).toBe(200);
    expect(opened.url).toBe(`http://${DOMAIN}/index.php`);
    expect(opened.body).not.toContain('name="pma_username"');
    const list = await browse('/tmp/sso.jar', `http://${DOMAIN}/index.php?route=/server/databases`);
    expect(list.status).toBe(200);
    expect(list.body).toContain('data-filter-row="SHOP"');
    expect(list.body).not.toContain('other_db');
    const accounts = await tempAccounts();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatch(/^sdsso_[0-9a-z]+_[0-9a-f]{12}$/);
    // Signed in as the temporary account, not as the user (whose password it never saw).
    expect(opened.body).toContain(`${accounts[0]}@localhost`);
    // The temporary account has the user's grants exactly.
    const grants = await sb.execOk([
      'mariadb',
      '-N',
      '-e',
      `SHOW GRANTS FOR '${accounts[0]}'@'localhost'`,
    ]);
    expect(grants.stdout).toContain('GRANT ALL PRIVILEGES ON `shop`.*');
    expect(grants.stdout).not.toContain('other_db');

    const again = await browse('/tmp/again.jar', url);
    expect(again.status).toBe(403);
    expect(again.body).toContain('used already');
    // The token file is gone; the activity line names the user, never the token.
    const left = await sb.execOk(['find', `${APP_DIR}/.stackdeck-pma/sso`, '-type', 'f']);
    expect(left.stdout.trim()).toBe('');
    const token = new URL(url).searchParams.get('t')!;
    const log = await panel.api(
      'GET',
      `activity/servers/${server.id}/users/${panel.uid}?perPage=50`,
    );
    expect(log.body).toContain('Open phpMyAdmin as shop_app');
    expect(log.body).not.toContain(token);

    // Signing out ends the signon session (the next visit gets the normal login) and leaves
    // the temporary account with a password nobody knows until the agent drops it.
    const hash = async () =>
      (
        await sb.execOk([
          'mariadb',
          '-N',
          '-e',
          `SELECT Password FROM mysql.user WHERE User = '${accounts[0]}'`,
        ])
      ).stdout.trim();
    const before = await hash();
    const out = await browse('/tmp/sso.jar', `http://${DOMAIN}/stackdeck-sso.php?logout=1`);
    expect(out.body).toContain('name="pma_username"');
    expect(await hash()).toMatch(/^\*[0-9A-F]{40}$/);
    expect(await hash()).not.toBe(before);
  }, 120_000);

  it('refuses an expired link', async () => {
    // The shortest link the op makes (5 s). Its expiry is the sso script's own check of the
    // server's clock (`time() > exp`): no event marks it, and neither the panel's clock nor a
    // setting of phpMyAdmin moves it. Opening the link to see would use it up, so the server's
    // clock is read until it is past the expiry, then the link is opened once.
    const made = await signon(5, 600);
    const exp = Date.parse(made.expires_at) / 1000;
    await waitFor(
      `the server's clock to pass the link's expiry (${made.expires_at})`,
      async () => Number((await sb.execOk(['date', '+%s'])).stdout.trim()) > exp,
      { timeoutMs: 20_000, intervalMs: 250 },
    );
    const late = await browse(
      '/tmp/late.jar',
      `http://${DOMAIN}/stackdeck-sso.php?t=${made.token}`,
    );
    expect(late.status).toBe(403);
    expect(late.body).toContain('expired');
  }, 60_000);

  it('drops a temporary account after its time', async () => {
    const before = await tempAccounts();
    const made = await signon(60, 5);
    expect(await tempAccounts()).toContain(made.account);
    const opened = await browse(
      '/tmp/short.jar',
      `http://${DOMAIN}/stackdeck-sso.php?t=${made.token}`,
    );
    expect(opened.url).toBe(`http://${DOMAIN}/index.php`);
    expect(opened.body).not.toContain('name="pma_username"');
    // The agent drops it at its expiry (and any later signon would too).
    for (let i = 0; i < 40 && (await tempAccounts()).includes(made.account); i++)
      await new Promise((r) => setTimeout(r, 250));
    const after = await tempAccounts();
    expect(after).not.toContain(made.account);
    expect(after).toEqual(before);
    // One left behind (an agent restart loses its timer) goes with the next sign-in.
    const stale = `sdsso_${Math.floor(Date.now() / 1000 - 10).toString(36)}_00000000abcd`;
    await sb.execOk(['mariadb', '-e', `CREATE USER '${stale}'@'localhost'`]);
    const next = await signon(60, 600);
    expect(next.dropped).toBe(1);
    expect(await tempAccounts()).not.toContain(stale);
    // Its phpMyAdmin session ends: back to the normal login.
    const back = await browse(
      '/tmp/short.jar',
      `http://${DOMAIN}/index.php?route=/server/databases`,
    );
    expect(back.body).toContain('name="pma_username"');
  }, 60_000);
});
