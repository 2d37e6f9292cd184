import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The database pages against a real server: a sandbox with the real agent and its own MariaDB.
 * Each step is checked in the page and on the server with the `mariadb` client, as root and as
 * the user the panel made, with the password the page generated.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-databases', services: ['ssh', 'mariadb'] });
let sb: SandboxServer;
let password = '';

const SHOTS = '.tmp/shots-databases';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

/** A query as root over the unix socket, rows tab-separated. */
const asRoot = async (query: string) =>
  (
    await sb.sandbox.exec(['mariadb', '--batch', '--raw', '--skip-column-names'], {
      input: query,
      timeoutMs: 15_000,
    })
  ).stdout.trim();
/** The databases the panel's user sees, signing in with the generated password. */
const seenBy = async (user: string) => {
  const res = await sb.sandbox.exec(
    ['mariadb', '--batch', '--skip-column-names', '-u', user, `-p${password}`],
    { input: 'SHOW DATABASES', timeoutMs: 15_000 },
  );
  return res.code === 0
    ? res.stdout.split('\n').filter((d) => d && d !== 'information_schema')
    : null;
};
const collationOf = (db: string) =>
  asRoot(
    `SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME='${db}'`,
  );

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('empty state leads to the form; a bad name is shown at its field', async ({ page }) => {
  sb = await server.ready();
  await signedIn(page);
  await page.goto(`/database-list/${sb.serverId}`);
  await expect(page.getByRole('heading', { name: 'No databases yet' })).toBeVisible();
  await shot(page, 'databases-empty');

  await page.getByRole('status').getByRole('link', { name: 'Add database' }).click();
  await expect(page).toHaveURL(new RegExp(`/mysql/${sb.serverId}$`));
  await page.getByLabel('Name', { exact: true }).fill('my-shop');
  await page.getByRole('button', { name: 'Add database' }).click();
  await expect(page.getByText('Letters, digits and _ only (at most 64)')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('my-shop');
  await shot(page, 'databases-create-bad');
});

test("add a database with a collation from the server's own list", async ({ page }) => {
  await signedIn(page);
  await page.goto(`/mysql/${sb.serverId}`);
  await page.getByLabel('Name', { exact: true }).fill('shop');
  const collation = page.getByRole('combobox', { name: 'Collation' });
  await collation.fill('utf8mb4_general');
  // Offered by the server's MariaDB (GET databases/collations), not by the page.
  await page.getByRole('option', { name: /utf8mb4_general_ci$/ }).click();
  await expect(collation).toHaveValue('utf8mb4_general_ci');
  await shot(page, 'databases-create');
  await page.getByRole('button', { name: 'Add database' }).click();

  await expect(page).toHaveURL(new RegExp(`/database-list/${sb.serverId}$`));
  const row = page.getByRole('row', { name: /shop/ });
  await expect(row.getByText('Active')).toBeVisible();
  expect(await collationOf('shop')).toBe('utf8mb4_general_ci');
  await shot(page, 'databases-list');
});

test('add a user with a generated password and a grant: it signs in and sees only its database', async ({
  page,
}) => {
  await asRoot('CREATE DATABASE IF NOT EXISTS not_yours');
  await signedIn(page);
  await page.goto(`/database-users/${sb.serverId}`);
  await expect(page.getByRole('heading', { name: 'No database users yet' })).toBeVisible();
  await shot(page, 'dbusers-empty');

  await page.getByRole('status').getByRole('link', { name: 'Add user' }).click();
  await expect(page).toHaveURL(new RegExp(`/database-user/${sb.serverId}$`));
  await page.getByLabel('User name').fill('shop_app');
  await page.getByRole('button', { name: 'Generate' }).click();
  password = await page.getByLabel('Password', { exact: true }).inputValue();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await page.getByLabel('Databases').click();
  await page.getByRole('option', { name: 'shop', exact: true }).click();
  await page.keyboard.press('Escape');
  await shot(page, 'dbusers-create');
  await page.getByRole('button', { name: 'Add user' }).click();

  await expect(page).toHaveURL(new RegExp(`/database-users/${sb.serverId}$`));
  const row = page.getByRole('row', { name: /shop_app/ });
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByText('shop', { exact: true })).toBeVisible();
  // The page never shows the password again.
  await expect(page.getByText(password)).toHaveCount(0);
  expect(await seenBy('shop_app')).toEqual(['shop']);
  await shot(page, 'dbusers-list');
});

test('removing a user from a database asks first; the user then loses it on the server', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/database-list/${sb.serverId}`);
  const row = page.getByRole('row', { name: /shop/ });
  await row.getByRole('img', { name: 'Remove shop_app from shop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove shop_app from shop?' });
  await expect(dialog).toBeVisible();
  await shot(page, 'databases-userdel-confirm');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('None')).toBeVisible();
  expect(await seenBy('shop_app')).toEqual([]);
});

test('editing the user gives the grant back and keeps the password when left empty', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/database-users/${sb.serverId}`);
  await page.getByRole('link', { name: 'Edit database user shop_app' }).click();
  await expect(page).toHaveURL(new RegExp(`/database-user/${sb.serverId}\\?user=\\d+$`));
  await expect(page.getByRole('heading', { name: 'Change database user' })).toBeVisible();
  await expect(page.getByLabel('User name')).toHaveCount(0);
  await page.getByLabel('Databases').click();
  await page.getByRole('option', { name: 'shop', exact: true }).click();
  await page.keyboard.press('Escape');
  await shot(page, 'dbusers-edit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/database-users/${sb.serverId}$`));
  await expect(page.getByRole('row', { name: /shop_app/ }).getByText('Active')).toBeVisible();
  expect(await seenBy('shop_app')).toEqual(['shop']);
});

test('the phpMyAdmin button: without a phpMyAdmin app the server asks for one first', async ({
  page,
  context,
}) => {
  await signedIn(page);
  await page.goto(`/database-users/${sb.serverId}`);
  // The tab opens at once (no pop-up blocker), and closes when there is no link to show.
  const tab = context.waitForEvent('page');
  await page
    .getByRole('row', { name: /shop_app/ })
    .getByRole('button', { name: 'phpMyAdmin as shop_app' })
    .click();
  const opened = await tab;
  await expect(page.getByText('Install phpMyAdmin on this server first')).toBeVisible();
  await expect.poll(() => opened.isClosed()).toBe(true);
  await shot(page, 'dbusers-phpmyadmin-missing');
});

test('changing the collation of a database; every database in the main sidebar page', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/database-list/${sb.serverId}`);
  await page.getByRole('link', { name: 'Edit database shop' }).click();
  await expect(page.getByRole('heading', { name: 'Change database' })).toBeVisible();
  const collation = page.getByRole('combobox', { name: 'Collation' });
  await expect(collation).toHaveValue('utf8mb4_general_ci');
  await collation.fill('utf8mb4_unicode_ci');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/database-list/${sb.serverId}$`));
  await expect(page.getByRole('row', { name: /utf8mb4_unicode_ci/ })).toBeVisible();
  expect(await collationOf('shop')).toBe('utf8mb4_unicode_ci');

  await page.goto('/database-list');
  const all = page.getByRole('table', { name: 'Databases of all servers' });
  const row = all.getByRole('row', { name: /shop/ });
  await expect(row.getByRole('link', { name: 'e2e-databases' })).toBeVisible();
  await expect(row.getByText('shop_app')).toBeVisible();
  await shot(page, 'databases-all-servers');
  await row.getByRole('link', { name: 'e2e-databases' }).click();
  await expect(page).toHaveURL(new RegExp(`/database-list/${sb.serverId}$`));
});

test('deleting asks first, naming what goes; then the user and the database are gone', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/database-users/${sb.serverId}`);
  await page.getByRole('button', { name: 'Delete database user shop_app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete database user shop_app?' });
  await expect(dialog).toContainText('apps that sign in with it stop working');
  await shot(page, 'dbusers-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'No database users yet' })).toBeVisible();
  expect(await seenBy('shop_app')).toBeNull();

  // Dropped behind the panel's back: the check against the server says so.
  await asRoot('DROP DATABASE shop');
  await page.goto(`/database-list/${sb.serverId}`);
  await page.getByRole('button', { name: 'Check against the server' }).click();
  await expect(page.getByTestId('sync-notice')).toBeVisible();
  await expect(
    page.getByRole('row', { name: /shop/ }).getByText('Missing on the server'),
  ).toBeVisible();
  await shot(page, 'databases-drift');
  await page.getByRole('button', { name: 'Delete database shop' }).click();
  const drop = page.getByRole('dialog', { name: 'Delete database shop?' });
  await expect(drop).toContainText('This cannot be undone');
  await drop.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'No databases yet' })).toBeVisible();
  expect(await asRoot("SHOW DATABASES LIKE 'shop'")).toBe('');
});
