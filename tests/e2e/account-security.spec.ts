import { type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, signIn, test, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-account';

/** Full-page screenshot from the top, where the shell's sticky header and sidebar belong. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function openProfile(page: Page, email: string, password: string) {
  await openSignedIn(page, email, password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/my-profile');
}

async function signOut(page: Page) {
  // The session lives in localStorage; a fresh page without it is a signed-out visitor.
  await page.evaluate(() => window.localStorage.clear());
  await page.goto('/login');
}

test('a changed password works for the next sign-in, the old one no longer', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const card = page.getByRole('region', { name: 'Password' });

  await card.getByLabel('Current password', { exact: true }).fill(account.password);
  await card.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
  await card.getByLabel('Repeat the new password').fill('a brand new passphrase typo');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByText('The two passwords differ')).toBeVisible();

  await card.getByLabel('Repeat the new password').fill('a brand new passphrase');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(/Password changed/)).toBeVisible();
  await expect(card.getByLabel('Current password', { exact: true })).toHaveValue('');

  await signOut(page);
  const refused = await page.request.post('/api/v1/users/login', {
    data: { email: account.email, password: account.password },
  });
  expect(refused.status()).toBe(401);
  await signIn(page, account.email, 'a brand new passphrase');
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
});

test('TOTP enrolment from the QR page, then a TOTP sign-in', async ({ page, api }) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });

  await card.getByRole('button', { name: 'Use an authenticator app' }).click();
  await expect(card.getByRole('img', { name: /QR code/ })).toHaveAttribute(
    'src',
    /^data:image\/png;base64,/,
  );
  const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  await shot(page, 'two-factor-totp');

  // Switching it on takes the password too: a stolen session alone cannot enrol a device.
  await card.getByLabel('Your password', { exact: true }).fill(account.password);
  await card.getByLabel('Code from the app').fill('000000');
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByText(/does not match/)).toBeVisible();

  await card.getByLabel('Code from the app').fill(totp.generate());
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-factor sign-in is on')).toBeVisible();
  await expect(card.getByText(/On, with authenticator app/)).toBeVisible();

  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/validate-otp$/);
  // Codes are single-use per 30 s step; the next step's code is accepted (one step of drift).
  await page.getByLabel(/code/i).fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
});

test('emailed-code enrolment, then turning two-factor off with the password', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });

  await card.getByRole('button', { name: 'Use emailed codes' }).click();
  await expect(card.getByText(`We sent a 6-digit code to ${account.email}`)).toBeVisible();
  await card.getByLabel('Code from the mail').fill(await api.codeMailedTo(account.email));
  await card.getByLabel('Your password', { exact: true }).fill(account.password);
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByText(/On, with emailed code/)).toBeVisible();

  await card.getByLabel('Current password', { exact: true }).fill('wrong password here');
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByText('Current password is incorrect')).toBeVisible();
  await card.getByLabel('Current password', { exact: true }).fill(account.password);
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByRole('button', { name: 'Use emailed codes' })).toBeVisible();

  // Off means off: the next sign-in needs no code.
  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
});

// API keys and account deletion: tests/e2e/account-apikeys.spec.ts.
