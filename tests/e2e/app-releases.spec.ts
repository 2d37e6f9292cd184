import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { type Api, E2E_ADMIN, expect, test, openSignedIn } from './fixtures';

/**
 * The admins' app-release catalogue: the sources a fresh panel seeds (Debian's packages, the
 * projects' official releases), a release pinned by hand (a bad SHA-256 refused at its field),
 * edited, the mirror set and cleared, the release removed after confirming. The catalogue and
 * its mirror are the whole panel's: this file runs alone (playwright.config.ts, locks), from the
 * seeded catalogue, and leaves WordPress on its Debian default and no mirror behind.
 */
test.describe.configure({ lock: '-exclusive-' });

interface Row {
  id: number;
  app: string;
  source: string;
}
/** The catalogue as the API lists it. */
async function catalogue(api: Api, request: APIRequestContext): Promise<Row[]> {
  const headers = { authorization: `Bearer ${await api.admin()}` };
  const list = await request.get('/api/v1/admin/app-releases?perPage=100', { headers });
  expect(list.status()).toBe(200);
  return ((await list.json()) as { data: Row[] }).data;
}
/**
 * Takes out what the installers' specs pinned by hand if they ran before (the seeded sources
 * cannot be removed), and makes WordPress's Debian source its default again.
 */
async function seededOnly(api: Api, request: APIRequestContext) {
  const headers = { authorization: `Bearer ${await api.admin()}` };
  const rows = await catalogue(api, request);
  for (const { id } of rows.filter((r) => r.source === 'pinned')) {
    const gone = await request.delete(`/api/v1/admin/app-releases/${id}`, { headers });
    expect(gone.status(), await gone.text()).toBeLessThan(300);
  }
  const debian = rows.find((r) => r.app === 'wordpress' && r.source === 'debian');
  expect(debian, 'a fresh panel seeds WordPress from Debian').toBeTruthy();
  const made = await request.patch(`/api/v1/admin/app-releases/${debian!.id}`, {
    headers,
    data: { is_default: true },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
}
const SHOTS = '.tmp/shots-app-releases';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function choose(page: Page, field: string, option: string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the admin pins, edits and removes a release, and points the catalogue at a mirror', async ({
  page,
  api,
  request,
}) => {
  await seededOnly(api, request);
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: 'App releases' }).first().click();
  await expect(page).toHaveURL(/\/admin\/app-releases$/);
  // The seeded sources: Debian's package for WordPress, the official releases for Nextcloud.
  await expect(page.getByRole('row', { name: /WordPress.*Debian package/ }).first()).toBeVisible();
  await expect(page.getByRole('row', { name: /Nextcloud.*Official/ }).first()).toBeVisible();
  await expect(
    page.getByRole('button', { name: /Check for new releases of Nextcloud/ }).first(),
  ).toBeVisible();
  const mirror = page.getByTestId('mirror-current');
  await expect(mirror).toHaveText('None: downloads come from the official URLs');
  await expect(page.getByText(/a mirror cannot change what is installed/)).toBeVisible();
  await shot(page, 'seeded');

  // Pin a release; a bad SHA-256 is refused at its field.
  await page.getByRole('link', { name: 'Add release' }).first().click();
  await expect(page).toHaveURL(/\/admin\/add-app-release$/);
  await expect(page.getByRole('heading', { name: 'Add an app release' })).toBeVisible();
  await choose(page, 'App', 'WordPress');
  await page.getByLabel('Version').fill('6.4.3');
  await page.getByLabel('Official URL').fill('https://wordpress.org/wordpress-6.4.3.tar.gz');
  await page.getByLabel('SHA-256').fill('not-a-hash');
  await choose(page, 'Format', 'tar.gz');
  await page.getByRole('button', { name: 'Add release' }).click();
  await expect(page.getByText(/64 hexadecimal digits/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/add-app-release$/);
  await shot(page, 'add-bad-sha');
  const sha = 'ab12cd34ef56'.repeat(5) + 'abcd';
  await page.getByLabel('SHA-256').fill(sha);
  await page.getByRole('button', { name: 'Add release' }).click();
  await expect(page).toHaveURL(/\/admin\/app-releases$/);
  const row = page.getByRole('row', { name: /6\.4\.3/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('WordPress');
  await expect(row).toContainText('tar.gz');
  await expect(row).toContainText('ab12cd34ef56…');

  // Edit: another version, and the app's default.
  await row.getByRole('link', { name: /Edit/ }).click();
  await expect(page).toHaveURL(/\/admin\/edit-app-release\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Edit app release' })).toBeVisible();
  await page.getByLabel('Version').fill('6.4.4');
  await page.getByLabel('Default for the app').check();
  await shot(page, 'edit');
  await page.getByRole('button', { name: /Save/ }).click();
  await expect(page).toHaveURL(/\/admin\/app-releases$/);
  const edited = page.getByRole('row', { name: /6\.4\.4/ });
  await expect(edited).toBeVisible();
  await expect(edited).toContainText('Default');

  // The mirror: a bad address refused at the field, then a local one.
  await page.getByRole('button', { name: 'Set a mirror' }).click();
  const address = page.getByLabel('Mirror address');
  await address.fill('ftp://mirror.example.org/releases');
  await page.getByRole('button', { name: 'Save mirror' }).click();
  await expect(page.getByText('Only https:// or http:// addresses')).toBeVisible();
  await address.fill('http://127.0.0.1:8080/releases');
  await page.getByRole('button', { name: 'Save mirror' }).click();
  await expect(mirror).toHaveText('http://127.0.0.1:8080/releases');
  await shot(page, 'mirror');
  await page.reload();
  await expect(mirror).toHaveText('http://127.0.0.1:8080/releases');

  // Remove the release, after the confirmation names it.
  await edited.getByRole('button', { name: /Delete/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('WordPress 6.4.4');
  await shot(page, 'delete-confirm');
  await dialog.getByRole('button', { name: /Delete/ }).click();
  await expect(page.getByRole('row', { name: /6\.4\.4/ })).toHaveCount(0);

  // Clear the mirror: downloads come from the official URLs again.
  await page.getByRole('button', { name: 'Clear mirror' }).click();
  await expect(mirror).toHaveText('None: downloads come from the official URLs');
  await shot(page, 'cleared');
  await seededOnly(api, request);
});
