import { expect, signInAsNewUser, test } from './fixtures';

/**
 * Alerts' pages (features/alerts): the empty history, and the settings form with its errors at
 * their fields — the browser's own check and the panel's refusal of a private webhook address —
 * saved with Enter and read back after a reload.
 */
test('alert history and settings: empty state, errors at their fields, saved', async ({
  page,
  api,
}) => {
  await signInAsNewUser(page, api);
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', exact: true })).toBeVisible();
  await expect(page.getByText('No alerts yet')).toBeVisible();
  await page.getByRole('link', { name: 'Alert settings' }).first().click();
  await expect(page).toHaveURL(/\/alert-settings$/);

  const minutes = page.getByLabel('Offline for more than (minutes)');
  await expect(minutes).toHaveValue('5');
  await minutes.fill('0');
  await minutes.press('Enter');
  await expect(page.getByText('At least 1 minute')).toBeVisible();

  await minutes.fill('15');
  const webhook = page.getByLabel('Webhook URL');
  await webhook.fill('http://10.0.0.5/hook');
  await webhook.press('Enter');
  await expect(page.getByText(/10\.0\.0\.5 is a private or local address/)).toBeVisible();
  // What was typed stays while the error is shown.
  await expect(minutes).toHaveValue('15');

  await webhook.fill('');
  await webhook.press('Enter');
  await expect(page.getByText('Alert settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Offline for more than (minutes)')).toHaveValue('15');
});
