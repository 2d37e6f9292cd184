import { expect, test } from './fixtures';

const SHOTS = '.tmp/shots-shell';

test('the emailed one-time code completes the sign-in', async ({ page, api, request }) => {
  const account = await api.account();
  // Turn the emailed second factor on through the API, as the profile page does.
  const { token } = await api.login(account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.get(`/api/v1/users/${account.id}/otp`, { headers })).status()).toBe(200);
  const enable = await request.put(`/api/v1/users/${account.id}`, {
    headers,
    data: {
      two_factor: true,
      two_factor_method: 'email',
      otp_code: await api.codeMailedTo(account.email),
      current_password: account.password,
    },
  });
  expect(enable.status(), await enable.text()).toBe(200);

  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/validate-otp$/);
  await expect(page.getByTestId('otp-method')).toHaveText(
    'We mailed a 6-digit sign-in code to your email address.',
  );
  await expect(page.getByLabel('Code')).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/validate-otp.png` });

  const code = await api.codeMailedTo(account.email);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Code').fill(wrong);
  await page.getByLabel('Code').press('Enter');
  await expect(page.getByText('Invalid or expired code')).toBeVisible();
  await expect(page).toHaveURL(/\/validate-otp$/);

  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await expect(page.getByTestId('account-name')).toHaveText(account.user_name);
});

test('the code page without a pending sign-in goes back to /login', async ({ page }) => {
  await page.goto('/validate-otp');
  await expect(page).toHaveURL(/\/login$/);
});
