import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The security page against a real server: a sandbox with the real agent and nft. Enabling
 * loads the panel's table; adding and removing a denied address changes it on the server
 * (checked with `nft list set`); a bad address and a bad port list are shown at their fields.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-firewall', services: ['ssh'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-firewall';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}
const denySet = async () =>
  (
    await sb.sandbox.exec(['nft', 'list', 'set', 'inet', 'stackdeck', 'deny4'], {
      timeoutMs: 15_000,
    })
  ).stdout;

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('enable the firewall, deny an address, remove it with the 3 s message, set ports', async ({
  page,
}) => {
  sb = await server.ready();
  await signedIn(page);
  await page.goto(`/security/${sb.serverId}`);
  await expect(page.getByText('Disabled: nothing is filtered')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('The allow list is empty')).toBeVisible();

  await page.getByLabel('Firewall enabled').click();
  await expect(page.getByText(/Enabled: only the open ports/)).toBeVisible({ timeout: 30_000 });

  await page.getByRole('tab', { name: 'Deny' }).click();
  await page.getByLabel('IP address or CIDR').fill('0.0.0.0/0');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(/every address \(\/0\) is not allowed/)).toBeVisible();
  await expect(page.getByLabel('IP address or CIDR')).toHaveValue('0.0.0.0/0');

  await page.getByLabel('IP address or CIDR').fill('127.0.0.50');
  await page.getByLabel('Comment').fill('e2e');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByTestId('entry-127.0.0.50')).toBeVisible();
  expect(await denySet()).toContain('127.0.0.50');
  await shot(page, 'firewall-denied');

  await page.getByRole('button', { name: 'Remove 127.0.0.50' }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  const done = page.getByText('IP address removed successfully!');
  await expect(done).toBeVisible();
  await expect(page.getByText('The deny list is empty')).toBeVisible();
  expect(await denySet()).not.toContain('127.0.0.50');
  await expect(done).toBeHidden({ timeout: 5000 });

  await page.getByLabel('Inbound TCP').fill('22, 80,443,9000:9010');
  await page.getByRole('button', { name: 'Save inbound' }).click();
  await expect(page.getByLabel('Inbound TCP')).toHaveValue('22,80,443,9000-9010');
  await page.getByLabel('Outbound TCP').fill('80,99999');
  await page.getByRole('button', { name: 'Save outbound' }).click();
  await expect(page.getByText(/Ports 1-65535/)).toBeVisible();
  await expect(page.getByText(/No country IP ranges are loaded/)).toBeVisible();
  await shot(page, 'firewall-ports');
});

test('the attempt limits card sets the SSH limit that fail2ban runs with', async ({ page }) => {
  // A sandbox has no journal: fail2ban reads sshd's lines from the syslog file (Debian 12's
  // rsyslog ships no init script, so the daemon itself).
  await sb.sandbox.exec(['rsyslogd'], { timeoutMs: 15_000 });
  await signedIn(page);
  await page.goto(`/security/${sb.serverId}`);
  const card = page.getByRole('group', { name: 'SSH limit' });
  await expect(card.getByLabel('SSH attempts')).toBeVisible({ timeout: 30_000 });
  await card.getByLabel('SSH attempts').fill('7');
  await page.getByRole('button', { name: 'Save attempt limits' }).click();
  await expect(page.getByText('Attempt limits saved; fail2ban reloaded.')).toBeVisible({
    timeout: 60_000,
  });
  const running = await sb.sandbox.exec(['fail2ban-client', 'get', 'stackdeck-ssh', 'maxretry'], {
    timeoutMs: 15_000,
  });
  expect(running.stdout.trim()).toBe('7');
  await page.reload();
  await expect(
    page.getByRole('group', { name: 'SSH limit' }).getByLabel('SSH attempts'),
  ).toHaveValue('7', { timeout: 30_000 });
  await shot(page, 'firewall-attempt-limits');
});
