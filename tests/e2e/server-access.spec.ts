import { expect, test, openSignedIn } from './fixtures';

/**
 * Who may open a server's pages, and what an offline server looks like. No sandbox: a server
 * record whose agent never connected is offline.
 */
test('an offline server says so and disables its controls; another user gets 404', async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account();
  const { token, id } = await api.login(owner.email, owner.password);
  const res = await request.post(`/api/v1/servers/users/${id}?action=create`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'e2e-offline' },
  });
  expect(res.status()).toBeLessThan(300);
  const { id: sid } = (await res.json()) as { id: number };

  // The charts (recharts) load with the statistics page only, never with /login.
  const loaded: string[] = [];
  page.on('request', (req) => loaded.push(req.url()));
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(loaded.filter((url) => /ServerStatsPage|recharts/i.test(url))).toEqual([]);
  await page.goto(`/server-summary/${sid}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Offline');
  await expect(page.getByTestId('offline-notice')).toContainText('offline');
  await expect(page.getByRole('button', { name: 'Reboot' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Clean up' })).toBeDisabled();

  await page.goto(`/services/${sid}`);
  await expect(page.getByTestId('offline-notice')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeDisabled();

  await page.goto(`/system-users/${sid}`);
  await expect(page.getByText('No system users yet')).toBeVisible();
  await expect(page.getByLabel('User name')).toBeDisabled();

  await page.goto(`/hostname/${sid}`);
  await expect(page.getByLabel('New host name')).toBeDisabled();

  await page.goto(`/activity-logs/${sid}`);
  await expect(page.getByText('No activity yet')).toBeVisible();

  // Not a number, or not a server of this user: the 404 page.
  await page.goto('/server-summary/not-a-number');
  await expect(page).toHaveURL(/\/404$/);

  const other = await api.account();
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await openSignedIn(page, other.email, other.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  for (const path of ['server-summary', 'system-users', 'ssh-keys', 'services']) {
    await page.goto(`/${path}/${sid}`);
    await expect(page).toHaveURL(/\/404$/);
  }
});
