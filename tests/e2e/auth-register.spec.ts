import { expect, test, uniqueEmail } from './fixtures';

const SHOTS = '.tmp/shots-shell';
const PASSWORD = 'a long e2e password';

test('register → confirm with the mailed code → sign in', async ({ page, api }) => {
  const email = uniqueEmail('register');
  await page.goto('/register');
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.screenshot({ path: `${SHOTS}/register.png` });
  await page.getByLabel(/^Password/).press('Enter');

  // The answer names no account (a known address gets the same): the link is in the mail.
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText(`We sent a message to ${email}`);
  await page.screenshot({ path: `${SHOTS}/register-sent.png` });
  const mail = await api.lastMail(email);
  const link = /http:\S+\/confirm-account\?uuid=[0-9a-f-]{36}/.exec(mail.text)![0];
  await page.goto(link);
  // The address the code went to, masked by the server.
  await expect(page.getByText(/We sent a 6-digit code to /)).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
  await page.getByLabel('Code').fill(await api.codeMailedTo(email));
  await page.screenshot({ path: `${SHOTS}/confirm-account.png` });
  await page.getByRole('button', { name: 'Confirm account' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account is confirmed. Please sign in.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await expect(page.getByTestId('account-name')).toHaveText('Grace Hopper');
  await expect(page.getByTestId('plan-name')).toHaveText('Trial');
});

test('form errors show on their fields and keep what was typed', async ({ page, api }) => {
  const taken = await api.account();
  await page.goto('/register');
  await page.getByLabel('Name').fill('G');
  await page.getByLabel('Email').fill('not an address');
  await page.getByLabel(/^Password/).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The declared schema (resources/users.ts) checks in the browser first.
  await expect(page.getByText('At least 2 characters')).toBeVisible();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(page.getByText('At least 10 characters', { exact: true })).toBeVisible();

  await page.getByLabel('Name').fill('Grace');
  await page.getByLabel('Email').fill(taken.email.toUpperCase());
  await page.getByLabel(/^Password/).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('At least 10 characters', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Grace');
  await expect(page.getByLabel('Email')).toHaveValue(taken.email.toUpperCase());
  await page.screenshot({ path: `${SHOTS}/register-errors.png` });
  // A known address is not refused: it gets the same "check your mail" as a new one.
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  await expect(page.getByText('An account with this email already exists')).toHaveCount(0);
});

test('signing in before confirming goes to the confirmation page', async ({
  page,
  request,
  api,
}) => {
  const email = uniqueEmail('unconfirmed');
  const created = await request.post('/api/v1/users', {
    data: { email, password: PASSWORD, user_name: 'Not Yet' },
  });
  expect(created.status()).toBe(201);
  const link = (await api.lastMail(email)).text;
  const uuid = /confirm-account\?uuid=([0-9a-f-]{36})/.exec(link)![1];
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`/confirm-account?uuid=${uuid}`);
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeVisible();
});

test('a wrong password is said once, and the email stays', async ({ page, api }) => {
  const account = await api.account();
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/^Password/).fill('not the password');
  await page.getByLabel(/^Password/).press('Enter');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid email or password' }),
  ).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await page.screenshot({ path: `${SHOTS}/login-error.png` });
});
