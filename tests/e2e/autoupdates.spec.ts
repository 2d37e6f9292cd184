import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * Automatic updates on /services/{id}, against a real server (a sandbox with the real agent and
 * Debian's unattended-upgrades): the switches show apt's view, a save is checked by the dry run
 * and lands in `apt-config dump`.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-autoupdates', services: ['ssh'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-autoupdates';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function aptPatterns(): Promise<string> {
  const res = await sb.sandbox.exec(['apt-config', 'dump'], { timeoutMs: 15_000 });
  return res.stdout
    .split('\n')
    .filter((l) => l.startsWith('Unattended-Upgrade::Origins-Pattern:: '))
    .join('\n');
}

test('a user narrows automatic updates to security only, then turns them off', async ({ page }) => {
  sb = await server.ready();
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/services/${sb.serverId}`);
  const card = page.getByRole('region', { name: 'Automatic updates' });
  await expect(card).toBeVisible();
  // Debian's stock list: security and the point releases.
  await expect(card.getByRole('switch', { name: 'Security updates' })).toBeChecked();
  await expect(card.getByRole('switch', { name: 'Software updates' })).toBeChecked();
  await shot(page, 'stock');

  await card.getByRole('switch', { name: 'Software updates' }).click();
  await card.getByRole('button', { name: 'Save automatic updates' }).click();
  await expect(page.getByText('Automatic updates saved and checked with a dry run.')).toBeVisible();
  // The allowed origin in words, not apt's pattern.
  await expect(
    card.getByText('Allowed now: Debian security updates', { exact: true }),
  ).toBeVisible();
  await expect
    .poll(aptPatterns)
    .toBe(
      'Unattended-Upgrade::Origins-Pattern:: "origin=Debian,codename=${distro_codename}-security,label=Debian-Security";',
    );
  await shot(page, 'security-only');

  await card.getByRole('switch', { name: 'Security updates' }).click();
  await card.getByRole('button', { name: 'Save automatic updates' }).click();
  await expect(card.getByText('No automatic updates are allowed now.')).toBeVisible();
  await expect(card.getByRole('switch', { name: 'Security updates' })).not.toBeChecked();
  expect(await aptPatterns()).toBe('');
  await shot(page, 'off');
});
