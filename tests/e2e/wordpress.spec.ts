import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { serveWordpress } from '../system/harness/releaseArchives';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The WordPress installer's page against a real server (a sandbox with nginx, PHP-FPM and
 * MariaDB): the form, the install's progress with the login shown once, and the site it made,
 * checked with `curl` through nginx. The release is Debian's WordPress (tests/system/harness).
 */
// Its install takes the default WordPress release, which wordpress.spec.ts and wpmanager.spec.ts
// each pin (playwright.config.ts, locks): the two never run at the same time.
test.describe.configure({ mode: 'serial', timeout: 180_000, lock: 'default-wordpress-release' });

const server = useSandboxServer({
  serverName: 'e2e-wordpress',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'mariadb'],
});
let sb: SandboxServer;

const SHOTS = '.tmp/shots-wordpress';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function adminToken(): Promise<string> {
  const res = await fetch(`${PANEL}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: E2E_ADMIN.email, password: E2E_ADMIN.password }),
  });
  return ((await res.json()) as { Token: string }).Token;
}

test('installs WordPress from the page, showing its progress and the login once', async ({
  page,
}) => {
  sb = await server.ready();
  const release = await serveWordpress(sb.sandbox, 18771);
  const pinned = await fetch(`${PANEL}/api/v1/admin/app-releases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await adminToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      app: 'wordpress',
      version: `6.1.9-e2e${Date.now() % 100000}`,
      url: release.url,
      sha256: release.sha256,
      format: 'tar.gz',
      is_default: true,
    }),
  });
  expect(pinned.status, await pinned.clone().text()).toBe(201);

  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/web-applications/${sb.serverId}`);
  await expect(page).toHaveURL(new RegExp(`/no-webapplications/${sb.serverId}$`));
  await page.getByRole('button', { name: 'Install an app' }).click();
  await page.getByRole('menuitem', { name: 'WordPress' }).click();
  await expect(page).toHaveURL(new RegExp(`/install-wordpress/${sb.serverId}$`));
  await expect(page.getByRole('heading', { name: 'Install WordPress' })).toBeVisible();

  // A bad field is said where it is, and nothing typed is lost.
  await page.getByLabel('App name').fill('blog');
  await page.getByLabel('Domains').fill('blog.test');
  await page.getByRole('combobox', { name: 'System user' }).click();
  await page.getByRole('option', { name: 'stackdeck', exact: true }).click();
  await page.getByLabel('Site title').fill('Stackdeck Page Blog');
  await page.getByLabel('Admin user name').fill('admin');
  await page.getByLabel('Admin mail address').fill('editor@example.com');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Install WordPress' }).click();
  await expect(page.getByText('Pick a name bots do not try first')).toBeVisible();
  await expect(page.getByLabel('Site title')).toHaveValue('Stackdeck Page Blog');
  await page.getByLabel('Admin user name').fill('editor1');
  await shot(page, 'wordpress-form');
  await page.getByRole('button', { name: 'Install WordPress' }).click();

  const progress = page.getByTestId('install-progress');
  await expect(progress).toBeVisible();
  await expect(progress.getByText('it is shown only now')).toBeVisible();
  await expect(progress.getByText('http://blog.test/wp-login.php')).toBeVisible();
  await shot(page, 'wordpress-installing');
  await expect(
    progress.getByRole('list', { name: 'Steps' }).getByText('WordPress is installed'),
  ).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('progressbar', { name: /: 100%$/ })).toBeVisible();
  await shot(page, 'wordpress-installed');

  const site = await sb.sandbox.execOk([
    'curl',
    '-s',
    '--resolve',
    'blog.test:80:127.0.0.1',
    'http://blog.test/',
  ]);
  expect(site.stdout).toContain('Stackdeck Page Blog');

  // The messages panel has it too, as a success.
  await page
    .getByRole('button', { name: /messages/i })
    .first()
    .click();
  await expect(page.getByText('Install of WordPress on blog.test')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Open the web app' }).click();
  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/\\d+$`));

  // Clone it from its summary: the copy's progress in the dialog, then the copy answers.
  await page.getByRole('button', { name: 'Clone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clone blog' });
  await dialog.getByLabel('New app name').fill('blog-copy');
  await dialog.getByLabel('Domains of the copy').fill('copy.test');
  await dialog.getByRole('combobox', { name: 'System user' }).click();
  await page.getByRole('option', { name: 'stackdeck', exact: true }).click();
  await shot(page, 'clone-form');
  await dialog.getByRole('button', { name: 'Clone' }).click();
  await expect(dialog.getByTestId('install-progress')).toBeVisible();
  await shot(page, 'clone-in-progress');
  await expect(dialog.getByText('The copy is ready')).toBeVisible({ timeout: 90_000 });
  await shot(page, 'clone-done');
  const copy = await sb.sandbox.execOk([
    'curl',
    '-s',
    '--resolve',
    'copy.test:80:127.0.0.1',
    'http://copy.test/',
  ]);
  expect(copy.stdout).toContain('Stackdeck Page Blog');
  expect(copy.stdout).toContain('http://copy.test/');
  expect(copy.stdout).not.toContain('http://blog.test/');
});
