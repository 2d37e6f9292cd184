import { expect, test } from './fixtures';

const SHOTS = '.tmp/shots-shell';

test('forgot password → mailed code → new password → sign in with it', async ({ page, api }) => {
  const account = await api.account();
  const newPassword = 'a brand new e2e password';

  // The page's timers on a clock the test can run forward (the success notice's 3 s, below).
  await page.clock.install();
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset your password' });
  // What was typed on the sign-in form is carried over.
  await expect(dialog.getByLabel('Email')).toHaveValue(account.email);
  await page.screenshot({ path: `${SHOTS}/forgot-password.png` });
  await dialog.getByRole('button', { name: 'Send code' }).click();

  await expect(page).toHaveURL(/\/confirm-account-for-password-reset\?id=[0-9a-f-]{36}$/);
  const code = await api.codeMailedTo(account.email);
  await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Invalid or expired code')).toBeVisible();
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(new RegExp(`/reset-password/[0-9a-f-]{36}\\?code=${code}$`));
  await page.getByLabel(/^New password/).fill('short');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('At least 10 characters', { exact: true })).toBeVisible();
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.screenshot({ path: `${SHOTS}/reset-password.png` });
  await page.getByRole('button', { name: 'Set password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  const success = page.getByText('Your password is changed. Please sign in.');
  await expect(success).toBeVisible();
  // Success notices clear themselves after 3000 ms (spec section 9; the figure is checked in
  // tests/unit/shell-notices.test.ts): on the page's clock, not in real time.
  await page.clock.runFor(3100);
  await expect(success).toBeHidden();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/^Password/).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
});

test('a reset link without its request id says so', async ({ page }) => {
  await page.goto('/confirm-account-for-password-reset');
  await expect(page.getByText('This reset link is incomplete.', { exact: false })).toBeVisible();
});
