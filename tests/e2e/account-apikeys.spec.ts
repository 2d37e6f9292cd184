import { type Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-account';

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function openProfile(page: Page, email: string, password: string) {
  await openSignedIn(page, email, password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/my-profile');
}

test('an API key is minted with the password, shown once, listed with its last use, revoked', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const card = page.getByRole('region', { name: 'API keys' });
  await expect(card.getByTestId('api-keys-empty')).toBeVisible();
  await expect(
    card.getByText('Changing or resetting your password revokes every API key.'),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Password' }).getByText(/revokes every API key/),
  ).toBeVisible();

  await card.getByRole('button', { name: 'New API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByLabel(/What is it for/).fill('deploy script');
  await dialog.getByLabel('Your password', { exact: true }).fill('not my password');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('Wrong password')).toBeVisible();
  await dialog.getByLabel('Your password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(card.getByText('Copy the secret now')).toBeVisible();
  const key = (await card.getByTestId('new-api-key').textContent())!.trim();
  const secret = (await card.getByTestId('api-secret').textContent())!.trim();
  expect(secret.length).toBeGreaterThan(20);
  const row = card.getByTestId('api-key-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('deploy script');
  await expect(row).toContainText(key);
  await expect(row).toContainText('Never');

  const asScript = () =>
    page.request.get(`/api/v1/users/${account.id}`, {
      headers: { 'x-api-key': key, 'x-api-secret': secret },
    });
  expect((await asScript()).status()).toBe(200);

  // After a reload the secret is gone for good; the list shows the key's last use.
  await page.reload();
  await expect(card.getByTestId('api-secret')).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(row).toContainText(/from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
  await shot(page, 'api-keys-list');

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
  await expect(confirm).toContainText('deploy script stops working at once');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByTestId('api-keys-empty')).toBeVisible();
  expect((await asScript()).status()).toBe(401);
});

test('deleting the account asks for the password, then signs out for good', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const card = page.getByRole('region', { name: 'Delete account' });
  await card.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Your password', { exact: true }).fill('not my password');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByText('Wrong password')).toBeVisible();
  await shot(page, 'delete-account');

  await dialog.getByLabel('Your password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const refused = await page.request.post('/api/v1/users/login', {
    data: { email: account.email, password: account.password },
  });
  expect(refused.status()).toBe(401);
});
