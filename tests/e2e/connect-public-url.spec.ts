import { expect, signInAsNewUser, test } from './fixtures';

/**
 * The Connect page says plainly when the install command cannot work from another machine:
 * this run's panel has PUBLIC_URL http://127.0.0.1:{port} (loopback, plain http), as a panel
 * started without PUBLIC_URL has http://localhost:8080. (Reachable https addresses get no
 * notice: tests/unit/ui-panelUrl.test.ts.)
 */
const PANEL = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;

test('a loopback, plain-http PUBLIC_URL is called out on the Connect page', async ({
  page,
  api,
}) => {
  await signInAsNewUser(page, api);
  await page.goto('/connect-first-server');
  await page.getByLabel('Server name').fill('url-check');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/server-install\/\d+$/);
  await expect(page.getByTestId('install-command')).toContainText(`${PANEL}/install/`);

  const unreachable = page.getByTestId('panel-url-unreachable');
  await expect(unreachable).toContainText(`A server elsewhere cannot reach ${PANEL}`);
  await expect(unreachable).toContainText('PUBLIC_URL=https://panel.example.com');
  await expect(unreachable).toContainText('see Configuration in the README');
  const plain = page.getByTestId('panel-url-plain-http');
  await expect(plain).toContainText("The agent's key would travel unencrypted");
  await expect(plain).toContainText('set PUBLIC_URL to its https:// address');
  await page.screenshot({ path: '.tmp/shots-connect/public-url-notices.png', fullPage: true });
});
