import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { serveFixture, serveRoundcube } from '../system/harness/releaseArchives';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The installer pages of the one-click apps against a real server (a sandbox with nginx,
 * PHP-FPM and MariaDB): each page's form, Roundcube installed from its page (Debian's real
 * Roundcube, see tests/system/harness), and Joomla from a fixture release (no internet here:
 * README, "What the tests cannot prove here"). WordPress and Node.js have specs of their own.
 */
// roundcube-sso.spec.ts pins Roundcube's default release too, from its own sandbox.
test.describe.configure({ mode: 'serial', timeout: 240_000, lock: 'default-roundcube-release' });

const server = useSandboxServer({
  serverName: 'e2e-installers',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'mariadb'],
});
let sb: SandboxServer;

const SHOTS = '.tmp/shots-installers';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function pin(app: string, release: { url: string; sha256: string; format?: string }) {
  const login = await fetch(`${PANEL}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: E2E_ADMIN.email, password: E2E_ADMIN.password }),
  });
  const token = ((await login.json()) as { Token: string }).Token;
  const res = await fetch(`${PANEL}/api/v1/admin/app-releases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      app,
      version: `e2e-${Date.now() % 1_000_000}`,
      url: release.url,
      sha256: release.sha256,
      format: release.format ?? 'tar.gz',
      is_default: true,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function fillApp(page: Page, name: string, domain: string) {
  await page.getByLabel('App name').fill(name);
  await page.getByLabel('Domains').fill(domain);
  await page.getByRole('combobox', { name: 'System user' }).click();
  await page.getByRole('option', { name: 'stackdeck', exact: true }).click();
}

async function installed(page: Page, label: string) {
  const progress = page.getByTestId('install-progress');
  await expect(progress).toBeVisible();
  await expect(
    progress.getByRole('list', { name: 'Steps' }).getByText(`${label} is installed`),
  ).toBeVisible({ timeout: 120_000 });
}

test('every installer has its page and form', async ({ page }) => {
  sb = await server.ready();
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const [path, label] of [
    ['install-nextcloud', 'Nextcloud'],
    ['install-joomla', 'Joomla'],
    ['install-moodle', 'Moodle'],
    ['install-phpmyadmin', 'phpMyAdmin'],
    ['install-roundcube', 'Roundcube'],
  ] as const) {
    await page.goto(`/${path}/${sb.serverId}`);
    await expect(page.getByRole('heading', { name: `Install ${label}` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Install ${label}` })).toBeVisible();
    await shot(page, path);
  }
});

test('installs Roundcube from its page; its sign-in page answers', async ({ page }) => {
  await pin('roundcube', await serveRoundcube(sb.sandbox, 18775));
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/install-roundcube/${sb.serverId}`);
  await fillApp(page, 'webmail', 'mail.test');
  await page.getByLabel('Name on the sign-in page').fill('E2E Mail');
  await page.getByRole('button', { name: 'Install Roundcube' }).click();
  await installed(page, 'Roundcube');
  await shot(page, 'roundcube-installed');
  const site = await sb.sandbox.execOk([
    'curl',
    '-s',
    '--resolve',
    'mail.test:80:127.0.0.1',
    'http://mail.test/',
  ]);
  expect(site.stdout).toContain('E2E Mail');
});

test('installs Joomla (a fixture release) from its page, the login shown once', async ({
  page,
}) => {
  await pin('joomla', await serveFixture(sb.sandbox, 'joomla', 18775));
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/install-joomla/${sb.serverId}`);
  await fillApp(page, 'cms', 'cms.test');
  await page.getByLabel('Site name').fill('E2E Joomla');
  await page.getByLabel('Admin user name').fill('owner1');
  await page.getByLabel('Admin mail address').fill('owner@example.com');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Install Joomla' }).click();
  await installed(page, 'Joomla');
  await expect(page.getByText('http://cms.test/administrator/')).toBeVisible();
  await shot(page, 'joomla-installed');
});
