import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * EasyPHP: the admins' catalogue (list, add, edit, offer or not, remove) and a user's server
 * page, against a real server: a sandbox with PHP-FPM 8.2 and the real agent. The switch is
 * checked in the page and in the server's fpm/conf.d.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-easyphp', services: ['ssh', 'php8.2-fpm'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-easyphp';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function confd(): Promise<string> {
  const res = await sb.sandbox.exec(['ls', '/etc/php/8.2/fpm/conf.d'], { timeoutMs: 15_000 });
  return res.stdout;
}

test('the admin adds, edits, stops offering and removes a catalogue extension', async ({
  page,
}) => {
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: 'EasyPHP' }).first().click();
  await expect(page).toHaveURL(/\/admin\/php-management$/);
  await expect(page.getByRole('row', { name: /Calendar/ })).toBeVisible();
  await shot(page, 'admin-catalogue');

  await page.getByRole('link', { name: 'Add extension' }).first().click();
  await expect(page).toHaveURL(/\/admin\/add-extension$/);
  await expect(page.getByRole('heading', { name: 'Add a PHP extension' })).toBeVisible();
  await page.getByLabel('Extension', { exact: true }).fill('Bad Name');
  await page.getByLabel('Name shown').fill('APCu');
  await page.getByRole('button', { name: 'Add extension' }).click();
  await expect(page.getByText(/The ini name phpenmod uses/).first()).toBeVisible();
  await page.getByLabel('Extension', { exact: true }).fill('apcu');
  await page.getByLabel('Debian package').fill('php{version}-apcu');
  await shot(page, 'admin-add');
  await page.getByRole('button', { name: 'Add extension' }).click();
  await expect(page).toHaveURL(/\/admin\/php-management$/);
  const row = page.getByRole('row', { name: /APCu/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('php{version}-apcu');

  await row.getByRole('link', { name: /Edit/ }).click();
  await expect(page).toHaveURL(/\/admin\/edit-extension\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Edit PHP extension' })).toBeVisible();
  await page.getByLabel('Name shown').fill('APCu cache');
  await page.getByRole('button', { name: /Save/ }).click();
  await expect(page).toHaveURL(/\/admin\/php-management$/);
  const edited = page.getByRole('row', { name: /APCu cache/ });
  await expect(edited).toBeVisible();

  const offered = edited.getByRole('switch', { name: 'Offer APCu cache to users' });
  await expect(offered).toBeChecked();
  await offered.click();
  await expect(offered).not.toBeChecked();

  await edited.getByRole('button', { name: /Delete/ }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Delete/ })
    .click();
  await expect(page.getByRole('row', { name: /APCu cache/ })).toHaveCount(0);
});

test("a user switches calendar off (after confirming) and on for the server's PHP-FPM", async ({
  page,
}) => {
  sb = await server.ready();
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/easyphp');
  await page.getByRole('link', { name: /e2e-easyphp/ }).click();
  await expect(page).toHaveURL(new RegExp(`/easy-php/${sb.serverId}$`));
  await expect(page.getByRole('combobox', { name: 'PHP version' })).toContainText('PHP 8.2');

  const calendar = page.getByTestId('extension-calendar');
  await expect(calendar).toContainText('Enabled');
  await expect(page.getByTestId('extension-soap')).toContainText('Not installed');
  await expect(page.getByTestId('extension-soap')).toContainText('php8.2-soap');
  await shot(page, 'server-extensions');

  const toggle = calendar.getByRole('switch', { name: 'Calendar for PHP 8.2' });
  await toggle.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Disable Calendar?');
  await shot(page, 'server-confirm-disable');
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(calendar).toContainText('Disabled');
  expect(await confd()).not.toContain('20-calendar.ini');

  await toggle.click();
  await expect(calendar).toContainText('Enabled');
  expect(await confd()).toContain('20-calendar.ini');

  // The server's PHP versions, as apt sees them: 8.2 installed, from Debian's packages (or
  // apt's local record where the machine has no package lists), nothing else offered.
  const versions = page.getByRole('table', { name: 'PHP versions' });
  await expect(versions.getByTestId('php-8.2')).toContainText('Installed');
  await expect(versions.getByRole('button', { name: /^Install PHP/ })).toHaveCount(0);
  await expect(page.getByText(/Sury repository \(packages\.sury\.org\/php\)/)).toBeVisible();
  await shot(page, 'server-php-versions');
});
