import { type FakeGithub, startFakeGithub } from '../fakes/github';
import { expect, signInAsNewUser, test } from './fixtures';

/**
 * /3rd-party-integration and /3rd-party-api-key: connect, replace and disconnect a credential.
 * GitHub checks each token: the panel asks the local fake of GitHub's API it was started with
 * (GITHUB_API_URL, playwright.config.ts).
 */
let github: FakeGithub;
test.beforeAll(async () => {
  github = await startFakeGithub(
    'ghp_e2eSecretToken_9876',
    Number(process.env.E2E_PORT ?? 4173) + 2,
  );
  github.tokens.add('ghp_replacedToken_5555');
});
test.afterAll(async () => {
  await github?.close();
});

test('a credential is saved masked, replaced and disconnected after confirming', async ({
  page,
  api,
}) => {
  await signInAsNewUser(page, api);
  await page.goto('/3rd-party-integration');
  const card = page.getByRole('article', { name: 'GitHub' });
  await expect(card.getByText('Not connected')).toBeVisible();

  await card.getByRole('link', { name: 'Connect GitHub' }).click();
  await expect(page).toHaveURL(/\/3rd-party-api-key\?integration=github$/);
  await page.getByLabel('Label').fill('Deploy token');
  await page.getByLabel('Personal access token').fill('short');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The credential is too short')).toBeVisible();
  // A token GitHub does not know is refused, and nothing is saved.
  await page.getByLabel('Personal access token').fill('ghp_unknownToken_0000');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText('GitHub refused the token: Bad credentials; nothing was saved'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/3rd-party-api-key\?integration=github$/);
  await page.getByLabel('Personal access token').fill('ghp_e2eSecretToken_9876');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/3rd-party-integration$/);
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  await expect(card.getByText('Personal access token ••••9876')).toBeVisible();
  await expect(page.getByText('ghp_e2eSecretToken_9876')).toHaveCount(0);

  await card.getByRole('link', { name: 'Replace' }).click();
  await expect(page.getByText('now ••••9876')).toBeVisible();
  await page.getByLabel('Personal access token').fill('ghp_replacedToken_5555');
  await page.getByRole('button', { name: 'Replace' }).click();
  await expect(page).toHaveURL(/\/3rd-party-integration$/);
  await expect(card.getByText('Personal access token ••••5555')).toBeVisible();

  await card.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Disconnect "Deploy token"?')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByText('Personal access token ••••5555')).toBeVisible();
  await card.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(card.getByText('Not connected')).toBeVisible();
  await page.screenshot({ path: '.tmp/e2e-dns/integrations.png', fullPage: true });
});
