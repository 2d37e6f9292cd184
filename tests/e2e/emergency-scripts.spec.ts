import { E2E_ADMIN, expect, openSignedIn, test } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The admins' 911 tool: an admin picks a script and a user's server, has a code mailed, runs
 * the script with it and reads the server's output on the page, against a real server (a
 * sandbox with nginx and the real agent). A code used once does not start a second run.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-911', services: ['ssh', 'nginx'] });
let sb: SandboxServer;

test.beforeAll(async () => {
  sb = await server.ready();
});

test("an admin restarts a user's web stack and reads its output", async ({ page, api }) => {
  const nginxBefore = (await sb.sandbox.exec(['pgrep', '-o', '-x', 'nginx'])).stdout.trim();
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: '911' }).first().click();
  await expect(page).toHaveURL(/\/admin\/911$/);
  await expect(page.getByRole('heading', { name: '911: emergency scripts' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Script' }).click();
  await page.getByRole('option', { name: 'Restart the web stack' }).click();
  await expect(page.getByText(/Impact: Sites stop answering/)).toBeVisible();

  await page.getByLabel('Servers of the user').fill(sb.account.email);
  await page.getByRole('option', { name: sb.account.email }).click();
  await page.getByRole('checkbox', { name: 'e2e-911' }).check();
  const run = page.getByRole('button', { name: 'Run on 1 server' });
  await expect(run).toBeDisabled();

  await page.getByRole('button', { name: 'Mail me a code' }).click();
  await expect(page.getByText('Sent: check your mail')).toBeVisible();
  const code = await api.codeMailedTo(E2E_ADMIN.email);
  await page.getByLabel('Code').fill(code);
  await run.click();

  const output = page.getByRole('region', { name: 'Output on e2e-911' });
  await expect(output.getByRole('log')).toContainText('nginx: configuration OK');
  await expect(output.getByRole('log')).toContainText('Restarted nginx');
  await expect(output.getByText('Done')).toBeVisible();
  const nginxAfter = (await sb.sandbox.exec(['pgrep', '-o', '-x', 'nginx'])).stdout.trim();
  expect(nginxAfter).not.toBe('');
  expect(nginxAfter).not.toBe(nginxBefore);

  // The same code again: refused at the field, nothing runs.
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Run on 1 server' }).click();
  await expect(
    page.getByText('Invalid, used or expired code: ask for a new one').first(),
  ).toBeVisible();
  expect((await sb.sandbox.exec(['pgrep', '-o', '-x', 'nginx'])).stdout.trim()).toBe(nginxAfter);
});
