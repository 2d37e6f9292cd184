import type { Page } from '@playwright/test';
import { expect, signIn, test, signInAsNewUser } from './fixtures';

const SHOTS = '.tmp/shots-account';

/** Full-page screenshot from the top, where the shell's sticky header and sidebar belong. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('/login-activity lists the sign-ins, newest first, filtered by result', async ({
  page,
  api,
}) => {
  const account = await api.account();
  const wrong = await page.request.post('/api/v1/users/login', {
    data: { email: account.email, password: 'certainly not the password' },
  });
  expect(wrong.status()).toBe(401);

  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/login-activity');

  // The sign-in attempts (the active sessions have a card of their own above them).
  const rows = page.locator('tbody tr:not([data-testid="session-row"])');
  // api.account() signed in once through the API (for the account's id) before these two.
  await expect(rows).toHaveCount(3);
  // Newest first: the browser sign-in, then the refused API attempt.
  await expect(rows.nth(0)).toContainText('Signed in');
  await expect(rows.nth(0)).toContainText(/Chrome \d+ on Linux/);
  await expect(rows.nth(0)).toContainText('127.0.0.1');
  await expect(rows.nth(1)).toContainText('Wrong password');
  await expect(rows.nth(2)).toContainText('Signed in');
  await shot(page, 'login-activity');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'login-activity-mobile');
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByLabel('Result').click();
  await page.getByRole('option', { name: 'Wrong password' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Wrong password');
  // The URL stays the spec's path.
  await expect(page).toHaveURL(/\/login-activity$/);
});

test('/account-activity-log shows the changes, who made them, and searches', async ({
  page,
  api,
}) => {
  const account = await signInAsNewUser(page, api);
  await page.goto('/my-profile');
  const details = page.getByRole('region', { name: 'Profile details' });
  await details.getByLabel('City').fill('Lisbon');
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();

  await page.goto('/account-activity-log');
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toContainText('Profile updated');
  // The Who column names the account that made the change (its email; admins and keys by name).
  await expect(rows.first()).toContainText(account.email);
  await expect(page.getByText('Account created')).toBeVisible();

  await page.getByRole('textbox', { name: 'Search activity' }).fill('created');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Account created');
  await shot(page, 'account-activity');

  await page.getByRole('textbox', { name: 'Search activity' }).fill('nothing like this');
  await expect(page.getByText('Nothing matches these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('textbox', { name: 'Search activity' })).toHaveValue('');
  await expect(rows.first()).toContainText('Profile updated');
});
