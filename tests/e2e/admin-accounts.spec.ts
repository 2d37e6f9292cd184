import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, signIn, test, uniqueEmail, openSignedIn } from './fixtures';

/**
 * Issue 8, findings 2 and 8: the outbox never shows a code (an admin reading one could take the
 * account over); an admin confirms a new user instead. Registration answers a known address
 * exactly as a new one.
 */
const SHOTS = '.tmp/shots-account';
const PASSWORD = 'a long e2e password';

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Fills the register form and submits it; returns the "check your mail" card's text. */
async function register(page: Page, email: string, name: string): Promise<string> {
  await page.goto('/register');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText(`We sent a message to ${email}`);
  return (await page.locator('main, body').first().innerText()).replaceAll(email, 'EMAIL');
}

test('a new user without the mail gets in when an admin confirms them', async ({
  page,
  api,
  browser,
}) => {
  const email = uniqueEmail('newcomer');
  const shown = await register(page, email, 'Nina Newcomer');
  await shot(page, 'register-check-mail');

  // Not confirmed yet: signing in leads to the confirmation page.
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/confirm-account\?uuid=/);

  // A known address gets the very same page (its owner gets a mail instead).
  const known = await api.account();
  expect(await register(page, known.email, 'Someone Else')).toBe(shown);
  const notice = await api.lastMail(known.email);
  expect(notice.subject).toBe('Someone tried to register with your address on Stackdeck');

  // The admin: the outbox shows that a code went out, never the code.
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const code = /code is (\d{6})/.exec((await api.lastMail(email)).text)![1]!;
  await page.goto('/admin/outbox');
  await page.getByRole('textbox', { name: 'Search recipient or subject' }).fill(email);
  const mails = page.locator('tbody tr');
  await expect(mails).toHaveCount(1);
  await mails.first().click();
  await expect(page.getByLabel('Mail text')).toContainText('Your confirmation code is ••••••');
  await expect(page.getByLabel('Mail text')).toContainText('Enter it at ••••••');
  await expect(page.getByText(code)).toHaveCount(0);
  await shot(page, 'admin-outbox-masked');

  // The admin confirms the account from the user list.
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search users' }).fill(email);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Nina Newcomer');
  await shot(page, 'admin-users-confirm');
  await rows
    .first()
    .getByRole('button', { name: `Confirm: ${email}` })
    .click();
  await expect(page.getByText(`${email} is confirmed and can sign in.`)).toBeVisible();
  await expect(rows.first().getByRole('button', { name: `Confirm: ${email}` })).toHaveCount(0);

  // A fresh reset mail goes to the user, not to the admin's screen.
  await rows
    .first()
    .getByRole('button', { name: `Send reset mail: ${email}` })
    .click();
  await expect(page.getByText(`A password reset mail is on its way to ${email}.`)).toBeVisible();
  await shot(page, 'admin-users-actions');
  expect((await api.lastMail(email)).subject).toBe('Reset your Stackdeck password');

  // The user, in their own browser, signs in.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const own = await context.newPage();
  await openSignedIn(own, email, PASSWORD);
  await expect(own).toHaveURL(/\/(dashboard|no-servers)$/);
  await expect(own.getByTestId('account-name')).toHaveText('Nina Newcomer');
  await context.close();
});
