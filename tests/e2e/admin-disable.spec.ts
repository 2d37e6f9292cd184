import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, signIn, test, openSignedIn } from './fixtures';

/**
 * Issue 8, finding 4: an admin disables an account from Admin → Users (after a confirmation);
 * the user's open browser is signed out at once and cannot sign in again until the admin enables
 * the account. An admin cannot disable their own account.
 */
const SHOTS = '.tmp/shots-account';

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('an admin disables an account, its browser is signed out, then enables it', async ({
  page,
  api,
  browser,
}) => {
  const account = await api.account({ user_name: 'Dora Disabled' });
  // The user, in their own browser.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const own = await context.newPage();
  await openSignedIn(own, account.email, account.password);
  await expect(own).toHaveURL(/\/(dashboard|no-servers)$/);

  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto('/admin/users');
  const search = page.getByRole('textbox', { name: 'Search users' });
  // No way to disable oneself.
  await search.fill(E2E_ADMIN.email);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('button', { name: /^Disable:/ })).toHaveCount(0);

  await search.fill(account.email);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Dora Disabled');
  await rows
    .first()
    .getByRole('button', { name: `Disable: ${account.email}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Disable ${account.email}?` });
  await expect(dialog).toContainText('signed out everywhere at once');
  await shot(page, 'admin-users-disable-confirm');
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(
    page.getByText(`${account.email} is disabled and signed out everywhere.`),
  ).toBeVisible();
  await expect(rows.first().getByText('Disabled', { exact: true })).toBeVisible();
  await expect(
    rows.first().getByRole('button', { name: `Enable: ${account.email}` }),
  ).toBeVisible();
  await expect(rows.first().getByRole('button', { name: `Act as ${account.email}` })).toHaveCount(
    0,
  );
  await shot(page, 'admin-users-disabled');

  // The user's browser is signed out: its token is refused on the next call.
  await own.goto('/my-profile');
  await expect(own).toHaveURL(/\/login$/);
  await signIn(own, account.email, account.password);
  await expect(own.getByText('This account is disabled')).toBeVisible();
  await expect(own).toHaveURL(/\/login$/);

  // Enabled again, the user signs in.
  await rows
    .first()
    .getByRole('button', { name: `Enable: ${account.email}` })
    .click();
  await page
    .getByRole('dialog', { name: `Enable ${account.email}?` })
    .getByRole('button', { name: 'Enable' })
    .click();
  await expect(page.getByText(`${account.email} is enabled and can sign in again.`)).toBeVisible();
  await expect(rows.first().getByText('Disabled', { exact: true })).toHaveCount(0);
  await signIn(own, account.email, account.password);
  await expect(own).toHaveURL(/\/(dashboard|no-servers)$/);
  await context.close();

  // The account's activity log names both, done by an admin.
  const token = (await api.login(account.email, account.password)).token;
  const log = await page.request.get(`/api/v1/accntactivity/users/${account.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await log.text();
  expect(text).toContain('Account disabled by an admin');
  expect(text).toContain('Account enabled by an admin');
});
