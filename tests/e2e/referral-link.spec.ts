import { expect, signInAsNewUser, test, uniqueEmail } from './fixtures';

const SHOTS = '.tmp/shots-referrals';

test('a friend registers through the referral link and shows up on /refer-a-friend', async ({
  page,
  browser,
  api,
}) => {
  const account = await signInAsNewUser(page, api);
  await page.goto('/refer-a-friend');
  const link = page.getByTestId('referral-link');
  await expect(link).toHaveValue(new RegExp(`/register/${account.uuid}$`));
  await expect(page.getByText('Nobody yet')).toBeVisible();
  await expect(page.getByText('No withdrawals yet')).toBeVisible();
  await expect(page.getByTestId('stat-withdrawable')).toHaveText('$0.00');
  // Nothing to withdraw yet: the form says so and cannot be sent.
  await expect(page.getByText(/once your withdrawable balance reaches \$10\.00/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Request withdrawal' })).toBeDisabled();

  // The friend opens the link in their own browser and registers.
  const friendContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const friend = await friendContext.newPage();
  const path = new URL(await link.inputValue()).pathname;
  await friend.goto(path);
  const email = uniqueEmail('friend');
  await friend.getByLabel('Name').fill('Friend');
  await friend.getByLabel('Email').fill(email);
  await friend.getByLabel(/^Password/).fill('a long e2e password');
  await friend.getByLabel(/^Password/).press('Enter');
  await expect(friend.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  await friendContext.close();

  await page.reload();
  await expect(page.getByTestId('stat-referred')).toHaveText('1');
  const rows = page.getByRole('table', { name: 'Referred users' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  // Masked: the first letter and the domain only.
  await expect(rows.nth(1)).toContainText('f***@e2e.test');
  await expect(page.getByText(email)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/refer-a-friend.png`, fullPage: true });
});
