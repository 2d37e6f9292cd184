import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-account';

/** Full-page screenshot from the top, where the shell's sticky header and sidebar belong. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

// The first test compares panel-wide counts: no other spec may add users or servers between the
// API's answer and the page's, so this file runs alone (playwright.config.ts, locks).
test.describe.configure({ lock: '-exclusive-' });

const FIGURES = [
  ['Users', 'users'],
  ['Confirmed users', 'confirmed_users'],
  ['Admins', 'admins'],
  ['Servers', 'servers'],
  ['Connected servers', 'connected_servers'],
  ['Sign-ups in the last 30 days', 'signups_last_30_days'],
] as const;

test('the admin dashboard shows the figures the API counts', async ({ page, api }) => {
  await api.account();
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  const token = await api.admin();
  const stats = (await (
    await page.request.get('/api/v1/admin/dashboard', {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as Record<(typeof FIGURES)[number][1], number>;
  expect(stats.users).toBeGreaterThanOrEqual(2);

  for (const [label, key] of FIGURES) {
    const card = page.getByRole('region', { name: label, exact: true });
    await expect(card.locator('[data-stat]')).toHaveText(stats[key].toLocaleString('en-US'));
  }
  await shot(page, 'admin-dashboard');

  await page
    .getByRole('link', { name: /Outbox/ })
    .last()
    .click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
});

test('the outbox lists mail and opens one with its text', async ({ page, api }) => {
  const account = await api.account();
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto('/admin/outbox');

  await page.getByRole('textbox', { name: 'Search recipient or subject' }).fill(account.email);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  // The e2e run delivers to its mailbox over SMTP (tests/e2e/mailbox.ts).
  await expect(rows.first()).toContainText('Sent');
  await shot(page, 'admin-outbox');

  await rows.first().click();
  await expect(page).toHaveURL(/\/admin\/outbox\/\d+$/);
  // That a code went out, never the code (issue 8).
  const code = await api.codeMailedTo(account.email);
  await expect(page.getByLabel('Mail text')).toContainText('Your confirmation code is ••••••');
  await expect(page.getByLabel('Mail text')).not.toContainText(code);
  await expect(page.getByText(account.email)).toBeVisible();
  await shot(page, 'admin-outbox-mail');
  await page.getByRole('link', { name: 'Outbox' }).last().click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
});

test('admin staff reach Users but not the dashboard, and cannot act as anyone', async ({
  page,
  api,
  request,
}) => {
  const staff = await api.account({ user_name: 'Staff Member' });
  // An admin grants the role (PATCH admin/update-user).
  const granted = await request.patch('/api/v1/admin/update-user', {
    headers: { authorization: `Bearer ${await api.admin()}` },
    data: { id: staff.id, is_admin_staff: true },
  });
  expect(granted.status(), await granted.text()).toBe(200);

  await openSignedIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search users' }).fill(staff.email);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Staff');
  await expect(page.getByRole('button', { name: /Act as/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  await shot(page, 'admin-users-staff');

  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/404$/);
});
