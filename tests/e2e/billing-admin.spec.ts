import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, openSignedIn, test } from './fixtures';

/**
 * The admins' packages and coupons: an add-on package and a coupon added through their forms
 * and seen listed, their prices as people
 * read them (5.00 USD from 500).
 */
const SHOTS = '.tmp/shots-billing';

async function choose(page: Page, field: string, option: string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the admin adds an add-on package and a coupon and sees them listed', async ({ page }) => {
  const tag = randomUUID().slice(0, 6).toUpperCase();
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await page.getByRole('link', { name: 'Packages' }).first().click();
  await expect(page).toHaveURL(/\/admin\/packages$/);
  await expect(page.getByRole('row', { name: /Basic/ })).toContainText('9.00 USD');

  await page.getByRole('link', { name: 'Add add-on package' }).first().click();
  await expect(page).toHaveURL(/\/admin\/add-addon-package$/);
  await page.getByLabel('Name', { exact: true }).fill(`Storage ${tag}`);
  await page.getByLabel('Monthly price (minor units)').fill('500');
  await page.getByLabel('Annual price (minor units)').fill('5000');
  await page.getByLabel('Backup storage (GB)').fill('100');
  await choose(page, 'Currency', 'USD');
  await page.getByRole('button', { name: 'Add package' }).click();
  await expect(page).toHaveURL(/\/admin\/packages$/);
  const addon = page.getByRole('row', { name: new RegExp(`Storage ${tag}`) });
  await expect(addon).toContainText('5.00 USD');
  await expect(addon).toContainText('50.00 USD');
  await page.screenshot({ path: `${SHOTS}/packages.png`, fullPage: true });

  // The package's page (PATCH admin/bizplans/{id}) changes its price.
  await addon.getByRole('link', { name: /Edit/ }).click();
  await expect(page).toHaveURL(/\/admin\/add-main-package\/\d+$/);
  await expect(page.getByLabel('Monthly price (minor units)')).toHaveValue('500');
  await page.getByLabel('Monthly price (minor units)').fill('700');
  await page.getByRole('button', { name: /Save/ }).click();
  await expect(page).toHaveURL(/\/admin\/packages$/);
  await expect(addon).toContainText('7.00 USD');

  await page.getByRole('link', { name: 'Coupons', exact: true }).first().click();
  await expect(page).toHaveURL(/\/admin\/coupons$/);
  await page.getByRole('link', { name: 'Add coupon' }).first().click();
  await expect(page).toHaveURL(/\/admin\/add-coupon$/);
  await page.getByLabel('Code', { exact: true }).fill(`SAVE${tag}`);
  await choose(page, 'Kind', 'A percentage');
  await page.getByLabel('Percentage off').fill('25');
  await page.getByLabel('Redemptions at most').fill('10');
  await page.getByRole('button', { name: 'Add coupon' }).click();
  await expect(page).toHaveURL(/\/admin\/coupons$/);
  const coupon = page.getByRole('row', { name: new RegExp(`SAVE${tag}`) });
  await expect(coupon).toContainText('25 %');
  await expect(coupon).toContainText('0 of 10');
  await page.screenshot({ path: `${SHOTS}/coupons.png`, fullPage: true });
});
