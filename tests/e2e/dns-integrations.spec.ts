import { expect, signInAsNewUser, test } from './fixtures';

/** /3rd-party-integration and /3rd-party-api-key: connect, replace and disconnect a credential. */
test('a credential is saved masked, replaced and disconnected after confirming', async ({
  page,
  api,
}) => {
  await signInAsNewUser(page, api);
  await page.goto('/3rd-party-integration');
  const github = page.getByRole('article', { name: 'GitHub' });
  await expect(github.getByText('Not connected')).toBeVisible();

  await github.getByRole('link', { name: 'Connect GitHub' }).click();
  await expect(page).toHaveURL(/\/3rd-party-api-key\?integration=github$/);
  await page.getByLabel('Label').fill('Deploy token');
  await page.getByLabel('Personal access token').fill('short');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The credential is too short')).toBeVisible();
  await page.getByLabel('Personal access token').fill('ghp_e2eSecretToken_9876');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/3rd-party-integration$/);
  await expect(github.getByText('Connected', { exact: true })).toBeVisible();
  await expect(github.getByText('Personal access token ••••9876')).toBeVisible();
  await expect(page.getByText('ghp_e2eSecretToken_9876')).toHaveCount(0);

  await github.getByRole('link', { name: 'Replace' }).click();
  await expect(page.getByText('now ••••9876')).toBeVisible();
  await page.getByLabel('Personal access token').fill('ghp_replacedToken_5555');
  await page.getByRole('button', { name: 'Replace' }).click();
  await expect(page).toHaveURL(/\/3rd-party-integration$/);
  await expect(github.getByText('Personal access token ••••5555')).toBeVisible();

  await github.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Disconnect "Deploy token"?')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(github.getByText('Personal access token ••••5555')).toBeVisible();
  await github.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(github.getByText('Not connected')).toBeVisible();
  await page.screenshot({ path: '.tmp/e2e-dns/integrations.png', fullPage: true });
});
