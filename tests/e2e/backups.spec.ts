import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The backup pages against a real server: a sandbox with the real agent, its own MariaDB and
 * restic, backing up to the panel's own storage. What a person sees: a database backup policy
 * made in the form, backed up now, its file turning ok with its size, restored after a
 * confirmation (the data is back on the server), a file deleted after a confirmation, and the
 * recovery key made and shown once.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const server = useSandboxServer({ serverName: 'e2e-backups', services: ['ssh', 'mariadb'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-backups';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

const asRoot = async (query: string) =>
  (
    await sb.sandbox.exec(['mariadb', '--batch', '--raw', '--skip-column-names'], {
      input: query,
      timeoutMs: 15_000,
    })
  ).stdout.trim();

async function signedIn(page: Page, path = '/backup') {
  await openSignedIn(page, sb.account.email, sb.account.password, path);
}

test('the overview shows the credit, the panel storage and the two kinds', async ({ page }) => {
  sb = await server.ready();
  await signedIn(page);
  await expect(page.getByRole('heading', { name: 'Backups', exact: true })).toBeVisible();
  await expect(page.getByTestId('credit-use')).toContainText('used of');
  await expect(page.getByRole('list', { name: 'Storages' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Database backups/ })).toBeVisible();
  await shot(page, 'backup-overview');
});

test('create a database backup policy in the form', async ({ page }) => {
  // A database made through the panel (so it is the panel's), with a row to find again.
  await sb.get(`databases/servers/${sb.serverId}/users/${sb.account.id}`);
  await page.request.fetch(`/api/v1/databases/servers/${sb.serverId}/users/${sb.account.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.token}` },
    data: { name: 'shop', collation: 'utf8mb4_unicode_ci' },
  });
  await expect.poll(() => asRoot("SHOW DATABASES LIKE 'shop'"), { timeout: 30_000 }).toBe('shop');
  await asRoot(
    "CREATE TABLE shop.orders (id INT PRIMARY KEY, what TEXT); INSERT INTO shop.orders VALUES (1, 'kept')",
  );

  await signedIn(page, '/database-backups');
  await expect(page.getByRole('heading', { name: 'No database backups yet' })).toBeVisible();
  await shot(page, 'database-backups-empty');
  await page.getByRole('status').getByRole('button', { name: 'Back up a database' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Server' }).click();
  await page.getByRole('option', { name: sb.serverName }).click();
  await dialog.getByRole('combobox', { name: 'Database' }).click();
  await page.getByRole('option', { name: 'shop', exact: true }).click();
  // A time the API refuses is said at its field.
  await dialog.getByLabel('At (HH:MM)').fill('25:00');
  await dialog.getByRole('button', { name: 'Create backup' }).click();
  await expect(dialog.getByText('A time is HH:MM')).toBeVisible();
  await dialog.getByLabel('At (HH:MM)').fill('03:30');
  await shot(page, 'database-backup-create');
  await dialog.getByRole('button', { name: 'Create backup' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /shop/ });
  await expect(row.getByTestId('health')).toHaveText('Never run');
  await expect(row).toContainText('03:30');
  await shot(page, 'database-backups-list');
});

test('back up now: the file turns ok with its size', async ({ page }) => {
  await signedIn(page, '/database-backups');
  await page.getByRole('link', { name: 'shop', exact: true }).click();
  await expect(page).toHaveURL(/\/database-backup-files\/\d+$/);
  await expect(page).toHaveURL(/\/database-backup-files\/\d+$/);
  await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();
  await page.getByRole('button', { name: 'Back up shop now' }).click();
  await expect(page.getByTestId('backup-task')).toBeVisible();
  const file = page
    .getByRole('row')
    .filter({ has: page.getByTestId('run-status') })
    .first();
  await expect(file.getByTestId('run-status')).toHaveText('OK', { timeout: 120_000 });
  await expect(file.getByTestId('file-size')).toHaveText(/\d+(\.\d+)? (Bytes|KB|MB)/);
  await shot(page, 'database-backup-files');
});

test('restore asks first, says what gets replaced, and the data is back', async ({ page }) => {
  await asRoot("DELETE FROM shop.orders; INSERT INTO shop.orders VALUES (2, 'after')");
  await signedIn(page, '/database-backups');
  await page.getByRole('link', { name: 'shop', exact: true }).click();
  await expect(page).toHaveURL(/\/database-backup-files\/\d+$/);
  await page
    .getByRole('button', { name: /^Restore the backup of shop/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('restore-consequence')).toContainText(
    'The whole database shop is replaced',
  );
  await expect(dialog.getByTestId('restore-consequence')).toContainText('kept aside');
  await shot(page, 'database-restore-confirm');
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('backup-task')).toContainText('Restored', { timeout: 120_000 });
  expect(await asRoot('SELECT what FROM shop.orders ORDER BY id')).toBe('kept');
  // The previous tables stay in a database of their own until the restore is kept.
  // Newest first (a retried test finds the first attempt's copy below).
  const kept = page.locator('[data-testid^="kept-"]').first();
  await expect(kept).toContainText(/the previous database is kept as (shop_before_\d{14})/);
  const previous = /(shop_before_\d{14})/.exec((await kept.textContent()) ?? '')![1]!;
  expect(await asRoot(`SELECT what FROM ${previous}.orders`)).toBe('after');
  await kept.getByRole('button', { name: 'Keep the restored database' }).click();
  await expect(dialog).toContainText(`The database ${previous}`);
  await dialog.getByRole('button', { name: 'Delete the previous copy' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-testid^="kept-"]').filter({ hasText: previous })).toHaveCount(0);
  expect(await asRoot(`SHOW DATABASES LIKE '${previous}'`)).toBe('');
});

test('delete a file asks first; the row goes', async ({ page }) => {
  await signedIn(page, '/database-backups');
  await page.getByRole('link', { name: 'shop', exact: true }).click();
  await expect(page).toHaveURL(/\/database-backup-files\/\d+$/);
  // The files' rows: only they show a size (the policies' rows, which have a run status too,
  // can still be on screen for a moment after the link was followed).
  const rows = page.getByRole('row').filter({ has: page.getByTestId('file-size') });
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();
  await rows
    .first()
    .getByRole('button', { name: /^Delete / })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('cannot be restored afterwards');
  await shot(page, 'database-file-delete');
  await dialog.getByRole('button', { name: 'Delete file' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(before - 1);
});

test('the recovery key is made after a confirmation and shown once', async ({ page }) => {
  await signedIn(page);
  await expect(page.getByTestId('recovery-state')).toContainText('No recovery key yet');
  await page.getByRole('button', { name: 'Make a recovery key' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your recovery key' });
  await expect(shown.getByTestId('recovery-key')).toHaveText(/^[a-z2-9]{4}(-[a-z2-9]{4}){7}$/);
  await expect(shown).toContainText('It opens 1 of your 1 repositories');
  await shot(page, 'backup-recovery-key');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  // Only its state is read back: the key itself is nowhere on the page any more.
  await expect(page.getByTestId('recovery-state')).toContainText('opens 1 of 1 repositories');
  await expect(page.getByTestId('recovery-key')).toHaveCount(0);
});
