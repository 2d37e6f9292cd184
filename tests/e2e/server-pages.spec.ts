import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The server-level pages against a real server: a sandbox with the real agent, installed from
 * the panel's own install command. Each step is checked in the page and inside the server.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

// Connected asking for a root password: the first opening sets it and shows it.
const server = useSandboxServer({
  serverName: 'e2e-pages',
  services: ['ssh', 'cron'],
  rootPassword: true,
});
let sb: SandboxServer;

async function open(page: Page, path: string) {
  await page.goto(`/${path}/${sb.serverId}`);
  await expect(page.locator('main h1')).toBeVisible();
}

const SHOTS = '.tmp/shots-server';
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function inside(argv: string[]) {
  return sb.sandbox.exec(argv, { timeoutMs: 15_000 });
}

function newPublicKey(): string {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-key-'));
  try {
    execFileSync('ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-C',
      'e2e@laptop',
      '-f',
      join(dir, 'k'),
    ]);
    return readFileSync(join(dir, 'k.pub'), 'utf8').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('first opening creates root and the default user; the summary is live', async ({ page }) => {
  sb = await server.ready();
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/server-summary/${sb.serverId}`);

  // The passwords made on opening, once: root and the default user, 36 characters each.
  const notice = page.getByRole('region', { name: 'New system user passwords' });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('password-root')).toHaveText(/^.{36}$/);
  await expect(page.getByTestId('password-stackdeck')).toHaveText(/^.{36}$/);
  const rootPassword = (await page.getByTestId('password-root').textContent())!;
  expect((await inside(['id', 'stackdeck'])).code).toBe(0);
  // Root's password really is the one shown.
  const shadow = await inside(['getent', 'shadow', 'root']);
  expect(shadow.stdout).toMatch(/^root:\$/);
  const verify = await inside([
    'python3',
    '-c',
    'import crypt,sys;h=sys.argv[1];print(crypt.crypt(sys.argv[2],h)==h)',
    shadow.stdout.split(':')[1]!,
    rootPassword,
  ]);
  if (verify.code === 0) expect(verify.stdout.trim()).toBe('True');

  // Live figures from the agent, and they move.
  await expect(page.getByTestId('connection-status')).toHaveText('Online');
  await expect(page.getByTestId('fact-os')).toContainText(/Debian/);
  await expect(page.getByTestId('fact-kernel')).not.toContainText('—');
  await expect(page.getByTestId('fact-memory')).toContainText(/ of /);
  const reported = page.getByTestId('fact-reported').locator('[data-value]');
  await expect(reported).not.toHaveText('—');
  const first = await reported.textContent();
  await expect(reported).not.toHaveText(first!, { timeout: 15_000 });

  // OS and time zone were read from the server and saved.
  const record = await sb.get<{ os_version: string | null; timezone: string | null }>(
    `servers/${sb.serverId}/users/${sb.account.id}`,
  );
  expect(record.os_version).toMatch(/Debian/);
  expect(record.timezone).toBeTruthy();

  await shot(page, 'summary-opening');
  await notice.getByRole('button', { name: /close|saved/i }).click();
  await expect(notice).toHaveCount(0);

  // System users: the default user is listed, root is not.
  await page
    .getByRole('link', { name: /system users/i })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/system-users/${sb.serverId}$`));
  await expect(page.getByTestId('sysuser-stackdeck')).toContainText('Active');
  await expect(page.getByTestId('sysuser-root')).toHaveCount(0);
  // Passwords are not shown again.
  await page.reload();
  await expect(page.getByTestId('sysuser-stackdeck')).toBeVisible();
  await expect(page.getByTestId('password-root')).toHaveCount(0);
});

test('create a system user: name checked as typed, generated password', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await open(page, 'system-users');
  const name = page.getByLabel('User name');
  await name.fill('stackdeck');
  await expect(page.getByTestId('name-availability')).toContainText('cannot be used');
  await name.fill('Bad Name');
  await page.getByRole('button', { name: 'Create system user' }).click();
  await expect(page.getByText(/Lower-case letters, digits/).first()).toBeVisible();
  await name.fill('alice');
  await expect(page.getByTestId('name-availability')).toHaveText('alice is available');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(/^.{36}$/);
  await page.getByLabel('Hard quota (MB)').fill('0');
  await page.getByRole('button', { name: 'Create system user' }).click();
  await expect(page.getByTestId('sysuser-alice')).toContainText('Active', { timeout: 30_000 });
  await expect(name).toHaveValue('');
  expect((await inside(['id', 'alice'])).code).toBe(0);
  await shot(page, 'system-users');

  // A new password, generated in the dialog.
  const before = (await inside(['getent', 'shadow', 'alice'])).stdout;
  await page.getByTestId('sysuser-alice').getByRole('button', { name: 'Password' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('New password', { exact: true }).fill('too short');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByText('At least 12 characters', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Generate' }).click();
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toHaveCount(0);
  expect((await inside(['getent', 'shadow', 'alice'])).stdout).not.toBe(before);

  // The deployment key: none yet, made on demand, then read back.
  await page.getByTestId('sysuser-alice').getByRole('button', { name: 'Deployment key' }).click();
  await expect(dialog).toContainText('no deployment key yet');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByTestId('deploy-key')).toHaveText(/^ssh-(ed25519|rsa) /, {
    timeout: 60_000,
  });
  const deployKey = (await dialog.getByTestId('deploy-key').textContent())!;
  await expect(dialog.getByRole('button', { name: 'Copy the deployment key' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByTestId('sysuser-alice').getByRole('button', { name: 'Deployment key' }).click();
  await expect(dialog.getByTestId('deploy-key')).toHaveText(deployKey);
  await dialog.getByRole('button', { name: 'Close' }).click();
});

test('add an SSH key for a system user, and change SSH settings', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await open(page, 'ssh-keys');
  await expect(page.getByText('No SSH keys yet')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('laptop');
  await page.getByLabel('System user').click();
  await page.getByRole('option', { name: 'alice' }).click();
  const keyInput = page.getByLabel('Public key');
  await keyInput.fill('ssh-ed25519 not-a-key');
  await page.getByRole('button', { name: 'Add key' }).click();
  await expect(page.getByText('Paste one OpenSSH public key').first()).toBeVisible();
  // What was typed stays.
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('laptop');
  const key = newPublicKey();
  await keyInput.fill(key);
  await page.getByRole('button', { name: 'Add key' }).click();
  const row = page.getByTestId('pubkey-laptop');
  await expect(row).toContainText('alice');
  await expect(row).toContainText('Active');
  const authorized = await inside(['cat', '/home/alice/.ssh/authorized_keys']);
  expect(authorized.stdout).toContain(key.split(' ')[1]);

  // SSH settings, read from the server.
  await expect(page.getByRole('spinbutton', { name: 'Port' })).toHaveValue(/^\d+$/);
  await page.getByLabel('Root login').click();
  await page.getByRole('button', { name: 'Save SSH settings' }).click();
  await expect(page.getByText('SSH settings saved and sshd reloaded.')).toBeVisible({
    timeout: 30_000,
  });
  await shot(page, 'ssh-keys');
  await page.getByRole('button', { name: 'Remove laptop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0, { timeout: 30_000 });
  expect((await inside(['cat', '/home/alice/.ssh/authorized_keys'])).stdout).not.toContain(
    key.split(' ')[1],
  );
});

test('change the host name', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await open(page, 'hostname');
  const input = page.getByLabel('New host name');
  await input.fill('bad_host!');
  await page.getByRole('button', { name: 'Change host name' }).click();
  await expect(
    page.getByText('Letters, digits and hyphens, in labels separated by dots'),
  ).toBeVisible();
  await input.fill('e2e-box.example.test');
  await page.getByRole('button', { name: 'Change host name' }).click();
  await expect(page.getByText('Host name changed.')).toBeVisible({ timeout: 30_000 });
  expect((await inside(['hostname'])).stdout.trim()).toBe('e2e-box.example.test');
  await expect(page.getByTestId('current-hostname')).toHaveText('e2e-box.example.test', {
    timeout: 15_000,
  });
});

test('stop and start a service', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await open(page, 'services');
  const cron = page.getByTestId('service-cron');
  await expect(cron).toContainText('Running', { timeout: 20_000 });
  await cron.getByRole('button', { name: 'Stop Cron', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Stop Cron?');
  await dialog.getByRole('button', { name: 'Stop' }).click();
  await expect(cron).toContainText('Stopped', { timeout: 30_000 });
  expect((await inside(['pgrep', '-x', 'cron'])).code).not.toBe(0);
  await shot(page, 'services-stopped');
  await cron.getByRole('button', { name: 'Start Cron', exact: true }).click();
  await expect(cron).toContainText('Running', { timeout: 30_000 });
  expect((await inside(['pgrep', '-x', 'cron'])).code).toBe(0);
});

test('clean up, reboot, and delete a system user', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await open(page, 'server-summary');
  await page.getByRole('button', { name: 'Clean up' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clean up' }).click();
  await expect(page.getByTestId('cleanup-result')).toContainText(/freed/, { timeout: 120_000 });
  await expect(page.getByTestId('cleanup-result')).toContainText('Package caches');

  // Reboot: the server really reboots and its agent comes back; the page follows it live. A
  // sandbox is back in about a second, so the Offline state between may be too short to
  // catch here (server-access.spec.ts checks an offline server's page).
  const status = page.getByTestId('connection-status');
  await expect(status).toHaveText('Online');
  const reboots = sb.sandbox.reboots;
  await page.getByRole('button', { name: 'Reboot' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reboot' }).click();
  await expect(page.getByText('The server is rebooting.')).toBeVisible();
  await sb.sandbox.waitForReboot(60_000);
  expect(sb.sandbox.reboots).toBeGreaterThan(reboots);
  await expect(status).toHaveText('Online', { timeout: 45_000 });
  await expect(page.getByRole('button', { name: 'Reboot' })).toBeEnabled();

  await open(page, 'system-users');
  await page.getByRole('button', { name: 'Delete alice' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('sysuser-alice')).toHaveCount(0, { timeout: 30_000 });
  expect((await inside(['id', 'alice'])).code).not.toBe(0);
});

test('activity logs list the operations, and statistics open', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await open(page, 'activity-logs');
  const table = page.getByRole('table', { name: 'Activity logs' });
  for (const line of [
    'Set the root password',
    'Create system user stackdeck',
    'Create system user alice',
    'Add SSH key "laptop" for alice',
    'Set the host name to e2e-box.example.test',
    'Change the password of alice',
    'Create the deployment key of alice',
    'Remove SSH key "laptop" of alice',
    'Reboot',
    'Delete system user alice',
  ])
    await expect(table).toContainText(line);
  await expect(table).toContainText(/cron/i);
  await expect(table).not.toContainText('Pending');
  await shot(page, 'activity-logs');

  // In the server layout, opening the messages panel loads the activity logs again.
  const reload = page.waitForRequest(
    (req) => req.method() === 'GET' && req.url().includes('/api/v1/activity/servers/'),
  );
  await page.getByRole('button', { name: 'Messages' }).click();
  await reload;
  await page.keyboard.press('Escape');

  await open(page, 'server-stats');
  await expect(page.getByRole('heading', { name: 'Statistics' })).toBeVisible();
  await expect(
    page.getByText('No history yet').or(page.getByRole('heading', { name: 'CPU usage' })),
  ).toBeVisible();
  await page.getByRole('button', { name: '30 days' }).click();
  await expect(page.getByRole('button', { name: '30 days' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});
