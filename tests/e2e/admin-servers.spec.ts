import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, openSignedIn, test } from './fixtures';

/**
 * Issue 26, the admin area without billing: an admin finds a server among every account's,
 * opens its owner's profile from the row and changes their company; the change is saved and
 * in the owner's activity with the admin's name.
 */
const SHOTS = '.tmp/shots-account';

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('an admin filters every server, opens the owner and changes their company', async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account({ user_name: 'Olga Owner' });
  const { token } = await api.login(owner.email, owner.password);
  const name = `shop-${randomUUID().slice(0, 8)}`;
  const created = await request.post(`/api/v1/servers/users/${owner.id}?action=create`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name, ip4: '203.0.113.77' },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);

  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password, '/admin/servers');
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search name or IP' }).fill(name);
  await page.getByLabel('Owner (email or name)').fill(owner.email);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(name);
  await expect(rows.first()).toContainText('Olga Owner');
  await expect(rows.first()).toContainText('203.0.113.77');
  await expect(rows.first()).toContainText('Pending install');
  await shot(page, 'admin-servers');

  // Another state leaves the row out.
  await page.getByLabel('Status').click();
  await page.getByRole('option', { name: 'Connected', exact: true }).click();
  await expect(page.getByText('Nothing matches these filters.')).toBeVisible();
  await page.getByLabel('Status').click();
  await page.getByRole('option', { name: 'Pending install' }).click();
  await expect(rows).toHaveCount(1);

  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/user-profile/${owner.id}$`));
  await expect(page.getByRole('heading', { name: 'Olga Owner', level: 1 })).toBeVisible();
  const servers = page.getByRole('table', { name: "The user's servers" });
  await expect(servers).toContainText(name);

  const details = page.getByRole('region', { name: 'Profile details' });
  await details.getByLabel('Company').fill('Olga Hosting Ltd');
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await shot(page, 'admin-user-profile');

  // Saved: the page read afresh shows it, and the owner's activity names the admin.
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Profile details' }).getByLabel('Company'),
  ).toHaveValue('Olga Hosting Ltd');
  const activity = await request.get(`/api/v1/accntactivity/users/${owner.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const lines = (await activity.json()) as { data: { message: string }[] };
  expect(JSON.stringify(lines.data[0])).toContain('Profile changed by an admin (company)');
  expect(JSON.stringify(lines.data[0])).toContain(E2E_ADMIN.email);
});

test('admin staff read servers and profiles, and change nothing', async ({
  page,
  api,
  request,
}) => {
  const staff = await api.account({ user_name: 'Sam Staff' });
  const owner = await api.account({ user_name: 'Rita Reader' });
  const made = await request.patch('/api/v1/admin/update-user', {
    headers: { authorization: `Bearer ${await api.admin()}` },
    data: { id: staff.id, is_admin_staff: true },
  });
  expect(made.status(), await made.text()).toBe(200);

  await openSignedIn(page, staff.email, staff.password, `/admin/user-profile/${owner.id}`);
  await expect(page.getByRole('heading', { name: 'Rita Reader', level: 1 })).toBeVisible();
  const details = page.getByRole('region', { name: 'Profile details' });
  await expect(details.getByText('Only admins change an account.')).toBeVisible();
  await expect(details.getByLabel('Company')).toBeDisabled();
  await expect(details.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Disable|Act as/ })).toHaveCount(0);
  // Backups are the admins' (admin/backups); the credit history staff may read.
  await expect(page.getByRole('region', { name: 'Backups' })).toHaveCount(0);
  await expect(page.getByTestId('credit-summary')).toContainText('of 10 GB');

  await page.getByRole('link', { name: 'Servers' }).first().click();
  await expect(page).toHaveURL(/\/admin\/servers$/);
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
});
