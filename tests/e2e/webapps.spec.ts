import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The web-app pages against a real server: a sandbox with the real agent, nginx and PHP-FPM.
 * Each step is checked in the page and on the server with `curl` through its nginx.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({
  serverName: 'e2e-webapps',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'mariadb'],
});
let sb: SandboxServer;
/** The id of the app the flow creates (from its summary's address). */
let shopId = '';

const SHOTS = '.tmp/shots-webapps';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

/** What nginx in the sandbox answers for a name. */
const served = async (domain: string) =>
  (
    await sb.sandbox.exec(['curl', '-s', '-H', `Host: ${domain}`, 'http://127.0.0.1/'], {
      timeoutMs: 15_000,
    })
  ).stdout;

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('no apps: the empty page leads to the form; a bad domain is said at its field', async ({
  page,
}) => {
  sb = await server.ready();
  await signedIn(page);
  await page.goto(`/web-applications/${sb.serverId}`);
  // The entry rule: no apps, so the empty page.
  await expect(page).toHaveURL(new RegExp(`/no-webapplications/${sb.serverId}$`));
  await expect(page.getByRole('heading', { name: 'No web apps yet' })).toBeVisible();
  await shot(page, 'webapps-empty');

  // The server serves no domain either: /no-domains says so and leads to the same form.
  await page.goto(`/no-domains/${sb.serverId}`);
  await expect(page.getByRole('heading', { name: 'No domains yet' })).toBeVisible();
  await shot(page, 'webapps-no-domains');

  await page.getByRole('status').getByRole('link', { name: 'Create web app' }).click();
  await expect(page).toHaveURL(new RegExp(`/create-web-app/${sb.serverId}$`));
  await page.getByLabel('App name').fill('shop');
  await page.getByLabel('Domains').fill('shop.test\nbad;name.test');
  await page.getByRole('button', { name: 'Create web app' }).click();
  await expect(page.getByText(/A domain such as example\.com/)).toBeVisible();
  await expect(page.getByLabel('App name')).toHaveValue('shop');
  await shot(page, 'webapps-create-bad');
});

test('create an app: its summary says active and nginx serves it as its user', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/create-web-app/${sb.serverId}`);
  await page.getByLabel('App name').fill('shop');
  await page.getByLabel('Domains').fill('shop.test\nwww.shop.test');
  await page.getByLabel('System user', { exact: true }).click();
  await page.getByRole('option', { name: 'stackdeck', exact: true }).click();
  await shot(page, 'webapps-create');
  await page.getByRole('button', { name: 'Create web app' }).click();

  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/\\d+$`));
  await expect(page.getByRole('heading', { name: 'shop' })).toBeVisible();
  shopId = page.url().split('/').pop()!;
  await expect(page.getByText('Active')).toBeVisible();
  await expect(page.getByText('shop.test (primary)')).toBeVisible();
  await expect(page.getByText('Native NGINX')).toBeVisible();
  await shot(page, 'webapps-summary');
  expect(await served('www.shop.test')).toMatch(/shop\.test runs PHP 8\.2/);

  await page.goto(`/web-applications/${sb.serverId}`);
  const row = page.getByRole('row', { name: /shop/ });
  await expect(row.getByText('shop.test, www.shop.test')).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  await shot(page, 'webapps-list');
  // With a domain served, /no-domains gives way to the list of apps and their domains.
  await page.goto(`/no-domains/${sb.serverId}`);
  await expect(page).toHaveURL(new RegExp(`/web-applications/${sb.serverId}$`));

  // The main sidebar's page: every app of every server, each leading to its summary.
  await page.goto('/web-applications');
  const all = page.getByRole('table', { name: 'Web apps of all servers' });
  await expect(all.getByRole('row', { name: /shop/ }).getByText('Active')).toBeVisible();
  await shot(page, 'webapps-all-servers');
  await all.getByRole('link', { name: 'shop', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/${shopId}$`));

  // The server's summary counts it.
  await page.goto(`/server-summary/${sb.serverId}`);
  const apps = page.getByRole('link', { name: 'Web apps', exact: true }).last();
  await expect(apps.locator('xpath=..')).toContainText('1');
});

test("the app's access log shows the requests nginx served, a page at a time", async ({ page }) => {
  await signedIn(page);
  for (let i = 0; i < 3; i++) await served('shop.test');
  await page.goto(`/web-server-log/${sb.serverId}/${shopId}`);
  await expect(page.getByLabel('Log lines')).toContainText('"GET / HTTP/1.1" 200');
  await expect(page.getByText('Page 1 of 1')).toBeVisible();
  // The same web-app sidebar as the app's other pages: its tools and its summary.
  const menu = page.getByRole('navigation').first();
  await expect(menu.getByRole('link', { name: 'FTP Accounts' })).toHaveAttribute(
    'href',
    `/ftp-accounts/${sb.serverId}/${shopId}`,
  );
  await expect(menu.getByRole('link', { name: 'Cache Control' })).toHaveAttribute(
    'href',
    `/cache-control/${sb.serverId}/${shopId}`,
  );
  await shot(page, 'webapps-log');
  await page.getByRole('tab', { name: 'Error log' }).click();
  await expect(page.getByText(/No lines yet|Page 1 of/)).toBeVisible();
  await menu.getByRole('link', { name: 'App Summary' }).click();
  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/${shopId}$`));
});

test('a sub-domain runs beside its parent as the same user', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/web-applications/${sb.serverId}`);
  await page.getByRole('row', { name: /shop/ }).getByText('shop.test, www.shop.test').click();
  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/\\d+$`));
  const appId = page.url().split('/').pop()!;
  await page.goto(`/sub-domains/${sb.serverId}/${appId}`);
  await expect(page.getByRole('heading', { name: 'No sub-domains yet' })).toBeVisible();
  await page.getByRole('status').getByRole('link', { name: 'Add sub-domain' }).click();
  await page.getByLabel('App name').fill('blog');
  await page.getByLabel('Domains').fill('blog.shop.test');
  await shot(page, 'webapps-subdomain-create');
  await page.getByRole('button', { name: 'Add sub-domain' }).click();
  const row = page.getByRole('row', { name: /blog/ });
  await expect(row.getByText('Active')).toBeVisible();
  await shot(page, 'webapps-subdomains');
  expect(await served('blog.shop.test')).toMatch(/blog\.shop\.test runs PHP 8\.2/);
  const owner = await sb.sandbox.exec(['stat', '-c', '%U', '/home/stackdeck/apps/blog']);
  expect(owner.stdout.trim()).toBe('stackdeck');
});

test('domains: add one, make it primary, remove the old; nginx follows', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/web-applications/${sb.serverId}`);
  await page.getByRole('row', { name: /shop/ }).getByText('shop.test, www.shop.test').click();
  const appId = page.url().split('/').pop()!;
  await page.goto(`/domains/${sb.serverId}/${appId}`);
  await page.getByLabel('Add a domain').fill('bad;name');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'A domain such as example.com' }),
  ).toBeVisible();
  await page.getByLabel('Add a domain').fill('Shöp.test');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText('xn--shp-tna.test was added.')).toBeVisible();
  expect(await served('xn--shp-tna.test')).toMatch(/runs PHP 8\.2/);
  await page.getByRole('button', { name: 'Make xn--shp-tna.test primary' }).click();
  await expect(page.getByText('xn--shp-tna.test is the primary domain.')).toBeVisible();
  await page.getByRole('button', { name: 'Remove www.shop.test' }).click();
  await expect(page.getByText('www.shop.test was removed.')).toBeVisible();
  await shot(page, 'webapps-domains');
  expect(await served('www.shop.test')).not.toMatch(/runs PHP/);
});

test('app settings: a PHP setting changed on the page is what the app sees', async ({ page }) => {
  await signedIn(page);
  await sb.sandbox.execOk(
    ['runuser', '-u', 'stackdeck', '--', 'tee', '/home/stackdeck/apps/shop/public/ini.php'],
    { input: '<?php echo ini_get("memory_limit");' },
  );
  await page.goto(`/app-settings/${sb.serverId}/${shopId}`);
  await expect(page.getByLabel('Memory limit')).toHaveValue('256M');
  await page.getByLabel('Memory limit').fill('1 GB');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('A size such as 256M')).toBeVisible();
  await page.getByLabel('Memory limit').fill('512M');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('The settings were applied on the server.')).toBeVisible();
  await shot(page, 'webapps-settings');
  const seen = await sb.sandbox.exec(
    ['curl', '-s', '-H', 'Host: shop.test', 'http://127.0.0.1/ini.php'],
    { timeoutMs: 15_000 },
  );
  expect(seen.stdout).toBe('512M');
});

test('web cache: on from its page, a second request is a HIT, a purge a MISS', async ({ page }) => {
  await signedIn(page);
  const status = async () => {
    const res = await sb.sandbox.exec(
      ['curl', '-s', '-o', '/dev/null', '-D', '-', '-H', 'Host: shop.test', 'http://127.0.0.1/'],
      { timeoutMs: 15_000 },
    );
    return /x-stackdeck-cache: (\w+)/i.exec(res.stdout)?.[1] ?? 'none';
  };
  await page.goto(`/cache-control/${sb.serverId}/${shopId}`);
  await page.getByLabel('Web cache on').click();
  await expect(page.getByText('The web cache is on.')).toBeVisible();
  expect(await status()).toBe('MISS');
  expect(await status()).toBe('HIT');
  await page.getByRole('button', { name: 'Purge cache' }).click();
  await expect(page.getByText('Every cached page was dropped.')).toBeVisible();
  expect(await status()).toBe('MISS');
  await shot(page, 'webapps-cache');
  await page.getByLabel('Web cache on').click();
  await expect(page.getByText('The web cache is off.')).toBeVisible();
  expect(await status()).toBe('none');
});

test("the app's databases: one made from its page is the app's and on the server", async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/app-database-list/${sb.serverId}/${shopId}`);
  await expect(page.getByRole('heading', { name: 'No databases yet' })).toBeVisible();
  await page.getByRole('status').getByRole('link', { name: 'Add database' }).click();
  await page.getByLabel('Name', { exact: true }).fill('shop_db');
  await page.getByRole('button', { name: 'Add database' }).click();
  const row = page.getByRole('row', { name: /shop_db/ });
  await expect(row.getByText('Active')).toBeVisible();
  await shot(page, 'webapps-databases');
  const dbs = await sb.sandbox.exec(['mariadb', '--batch', '--skip-column-names'], {
    input: 'SHOW DATABASES',
    timeoutMs: 15_000,
  });
  expect(dbs.stdout.split('\n')).toContain('shop_db');
});

test('a new account: its own system user, then its first app, run as it', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/create-account/${sb.serverId}`);
  await page.getByLabel('User name').fill('carol');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Create system user' }).click();
  await expect(page.getByText('The system user carol was created.')).toBeVisible();
  await page.getByLabel('App name').fill('carolapp');
  await page.getByLabel('Domains').fill('carol.test');
  await shot(page, 'webapps-account');
  await page.getByRole('button', { name: 'Create web app' }).click();
  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/\\d+$`));
  await expect(page.getByText('Active')).toBeVisible();
  expect(await served('carol.test')).toMatch(/carol\.test runs PHP 8\.2/);
  const owner = await sb.sandbox.exec(['stat', '-c', '%U', '/home/carol/apps/carolapp']);
  expect(owner.stdout.trim()).toBe('carol');
});

test('rebuild writes the app again; delete names its child apps, and the sites are gone', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/account-summary/${sb.serverId}/${shopId}`);
  await page.getByRole('button', { name: 'Rebuild' }).click();
  await expect(page.getByText('shop was written again from the panel.')).toBeVisible();

  await page.getByRole('button', { name: 'Delete web app shop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete web app shop?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/child apps go with it: blog/)).toBeVisible();
  await shot(page, 'webapps-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`/(no-)?web-?applications/${sb.serverId}$`));
  expect(await served('shop.test')).not.toMatch(/shop\.test runs PHP/);
  expect(await served('blog.shop.test')).not.toMatch(/runs PHP/);
});
