import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, signIn, test } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * Issue 22, "Words, menus and screens a user can trust", against a real server (a sandbox with
 * the real agent, nginx and PHP-FPM): an admin's way to their own servers, the dashboard card's
 * live figures, the create-web-app form (the server's PHP versions, a new system user made on
 * the spot, each stack described), the file manager's sidebar, the older addresses, and a
 * supervisor job's state pushed to its page.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({
  serverName: 'e2e-words',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'supervisor'],
});
let sb: SandboxServer;

const SHOTS = '.tmp/shots-words';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

test('an admin reaches their own servers from the admin area', async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const link = page.getByRole('banner').getByRole('link', { name: 'My servers' });
  await shot(page, 'admin-header');
  await link.click();
  // Their dashboard, or its empty page when they have no server of their own.
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
});

test('a new web app on a new system user, with a PHP version the server has', async ({ page }) => {
  sb = await server.ready();
  await signIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The card's live figures, from the agent's reports.
  const card = page.getByRole('article', { name: 'e2e-words' });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('card-load')).toContainText(/\d\.\d\d on \d+ cores?/);
  await expect(card.getByTestId('card-memory')).toContainText(/% of /);
  await expect(card.getByTestId('card-disk')).toContainText(/% of /);
  await shot(page, 'dashboard-card');

  await page.goto(`/create-web-app/${sb.serverId}`);
  await page.getByRole('radio', { name: 'A new system user' }).check();
  await page.getByLabel('User name').fill('words');
  await expect(page.getByTestId('name-availability')).toHaveText('words is available');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Create system user' }).click();
  await expect(page.getByText('The system user words was created')).toBeVisible({
    timeout: 30_000,
  });

  // PHP: only what the server has (Debian 12: 8.2), and the way to install another.
  await expect(
    page.getByRole('link', { name: 'Install a PHP version on EasyPHP' }),
  ).toHaveAttribute('href', `/easy-php/${sb.serverId}`);
  await page.getByRole('combobox', { name: /^PHP/ }).click();
  const versions = page.getByRole('option', { name: /\d\.\d/ });
  await expect(versions).toHaveText(["8.2 (Debian's own packages)"]);
  await versions.first().click();
  // Each stack's own description under the choice.
  await expect(page.getByText(/ignored \(the web cache works here\)/)).toBeVisible();
  await page.getByRole('combobox', { name: /^Stack/ }).click();
  await page.getByRole('option', { name: 'NGINX plus Apache2' }).click();
  await expect(page.getByText(/honours \.htaccess files/)).toBeVisible();
  await page.getByRole('combobox', { name: /^Stack/ }).click();
  await page.getByRole('option', { name: 'Native NGINX' }).click();
  await page.getByLabel('App name').fill('words');
  await page.getByLabel('Domains').fill('words.localhost');
  await shot(page, 'create-web-app');
  await page.getByRole('button', { name: 'Create web app' }).click();
  await expect(page).toHaveURL(new RegExp(`/account-summary/${sb.serverId}/\\d+$`), {
    timeout: 60_000,
  });
  const appId = /\/(\d+)$/.exec(page.url())![1]!;
  const owner = await sb.sandbox.exec(['stat', '-c', '%U', '/home/words/apps/words'], {
    timeoutMs: 15_000,
  });
  expect(owner.stdout.trim()).toBe('words');

  // The file manager has the same sidebar as the app's other pages.
  await page.goto(`/file-manager/${sb.serverId}/${appId}`);
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar.getByRole('link', { name: 'Databases' })).toHaveAttribute(
    'href',
    `/app-database-list/${sb.serverId}/${appId}`,
  );
  await expect(sidebar.getByRole('link', { name: 'Cache Control' })).toHaveAttribute(
    'href',
    `/cache-control/${sb.serverId}/${appId}`,
  );
  await shot(page, 'file-manager-sidebar');

  // The spec's older addresses open today's pages.
  await page.goto(`/mysqlold/${sb.serverId}`);
  await expect(page).toHaveURL(new RegExp(`/database-list/${sb.serverId}$`));
  await page.goto(`/server-summaryold/${sb.serverId}`);
  await expect(page).toHaveURL(new RegExp(`/server-summary/${sb.serverId}$`));
  await shot(page, 'old-address');
});

test("a supervisor job's state change shows without a reload", async ({ page, request }) => {
  const made = await request.post(`/api/v1/svjobs/servers/${sb.serverId}/users/${sb.account.id}`, {
    headers: { authorization: `Bearer ${sb.token}` },
    data: {
      name: 'ticker',
      command: '/bin/sleep 100000',
      directory: '/tmp',
      user: 'root',
      numprocs: 1,
      autostart: true,
      autorestart: false,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  await signIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/supervisor-jobs/${sb.serverId}`);
  await expect(page.getByLabel('ticker_00 RUNNING')).toBeVisible({ timeout: 30_000 });
  // Stopped on the server, not through the panel: the agent's next report carries it here
  // (the page's own read runs every 30 s only while the live feed is up).
  await sb.sandbox.exec(['supervisorctl', 'stop', 'stackdeck-ticker:*'], { timeoutMs: 15_000 });
  await expect(page.getByLabel('ticker_00 STOPPED')).toBeVisible({ timeout: 15_000 });
  await shot(page, 'supervisor-pushed');
});
