import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, signIn, test } from './fixtures';

/**
 * Issue 8, finding 4: the account holder sees their active sessions on /login-activity, signs
 * one out (its token stops working at once), signs out every other one, and signing out this
 * one ends at /login.
 */
// Run at the same time, this spec and the other act-as spec (account-sessions,
// admin-impersonation) stall each other: a page stays on "Loading…" without a request (seen
// on the commit before the act-as change too; cause not found yet). Alone at the end.
test.describe.configure({ lock: '-exclusive-' });

const SHOTS = '.tmp/shots-account';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('the holder lists their sessions, signs one out, then the others, then this one', async ({
  page,
  api,
}) => {
  const account = await api.account();
  // A sign-in from a phone, as the account holder's other device.
  const phone = await page.request.post('/api/v1/users/login', {
    data: { email: account.email, password: account.password },
    headers: { 'user-agent': IPHONE },
  });
  expect(phone.status()).toBe(200);
  const phoneToken = ((await phone.json()) as { Token: string }).Token;
  const asPhone = () =>
    page.request.get(`/api/v1/users/${account.id}`, {
      headers: { authorization: `Bearer ${phoneToken}` },
    });
  expect((await asPhone()).status()).toBe(200);

  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/login-activity');
  const card = page.getByRole('region', { name: 'Active sessions' });
  const rows = card.getByTestId('session-row');
  // api.account() signed in once, the phone once, this browser once.
  await expect(rows).toHaveCount(3);
  await expect(card.getByText('This session')).toHaveCount(1);
  const phoneRow = rows.filter({ hasText: 'iOS' });
  await expect(phoneRow).toHaveCount(1);
  await expect(phoneRow).toContainText('Safari 17 on iOS');
  // The sign-in attempts stay listed under the card.
  await expect(page.getByRole('heading', { name: 'Login Activity' })).toBeVisible();
  await shot(page, 'account-sessions');

  // Sign the phone out.
  await phoneRow.getByRole('button', { name: /^Revoke: sign out Safari 17 on iOS/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out this session?' });
  await expect(dialog).toContainText('Safari 17 on iOS');
  await shot(page, 'account-sessions-confirm');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Session signed out')).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'iOS' })).toHaveCount(0);
  expect((await asPhone()).status()).toBe(401);

  // Every other session: only this one is left.
  await card.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await page
    .getByRole('dialog', { name: 'Sign out all other sessions?' })
    .getByRole('button', { name: 'Sign out others' })
    .click();
  await expect(page.getByText('1 session signed out')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('This session');
  await expect(card.getByRole('button', { name: 'Sign out all other sessions' })).toBeDisabled();
  await shot(page, 'account-sessions-only-this');

  // This session: the browser is signed out and lands on /login.
  await rows.first().getByRole('button', { name: 'Sign out this session' }).click();
  const last = page.getByRole('dialog', { name: 'Sign out this session?' });
  await expect(last).toContainText('you will be signed out');
  await last.getByRole('button', { name: 'Revoke' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/login-activity');
  await expect(page).toHaveURL(/\/(login|register)$/);
});

test('an admin acting as the user sees that only the holder manages the sessions', async ({
  page,
  api,
}) => {
  const account = await api.account();
  // The admin's UI: sign in, act as the user from the list, open the page.
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search users' }).fill(account.email);
  await page.getByRole('button', { name: `Act as ${account.email}` }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/login-activity');
  const card = page.getByRole('region', { name: 'Active sessions' });
  await expect(
    card.getByText('Only the account holder can see or sign out the sessions.'),
  ).toBeVisible();
  await expect(card.getByTestId('session-row')).toHaveCount(0);
});
