import { type Page, test as base } from '@playwright/test';
import { type Sandbox, startSandbox } from '../../scripts/sandbox/index';
import { expect, test, openSignedIn } from './fixtures';

/**
 * The whole life of a server, for real: a new user connects their first server, runs the
 * install command the page shows inside a sandbox server, watches the install and the agent
 * connect, finds it on the dashboard, and removes it, which removes the agent from the server.
 * Needs root and the sandbox's packages (scripts/sandbox-server deps); set
 * STACKDECK_SANDBOX_BASE to keep this run's sandboxes apart from others'.
 */
const PANEL = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;
const SHOTS = '.tmp/shots-connect';

let sandbox: Sandbox | null = null;
let booting: Promise<Sandbox> | null = null;

test.describe.configure({ mode: 'serial', timeout: 150_000 });

base.beforeAll(() => {
  // Boots while the first steps run in the browser; only ssh, the agent needs nothing else.
  booting = startSandbox({ panel: PANEL, services: ['ssh'], bootTimeoutMs: 90_000 });
  booting.then((sb) => (sandbox = sb)).catch(() => undefined);
});

base.afterAll(async () => {
  const sb = sandbox ?? (await booting?.catch(() => null));
  await sb?.stop();
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Runs `argv` inside the sandbox; true when it exits 0. */
async function inside(sb: Sandbox, argv: string[]): Promise<boolean> {
  return (await sb.exec(argv, { timeoutMs: 10_000 })).code === 0;
}

test('connect a first server, install its agent in a sandbox, then remove it', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/no-servers$/);

  // /no-servers → /connect-first-server: name it, IP and provider optional.
  await page.getByRole('link', { name: 'Connect your first server' }).click();
  await expect(page).toHaveURL(/\/connect-first-server$/);
  await expect(page.getByRole('heading', { name: /connect your first server/i })).toBeVisible();
  await page.getByLabel('IP address (optional)').fill('not an ip');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('An IPv4 address like 203.0.113.10')).toBeVisible();
  await page.getByLabel('IP address (optional)').fill('');
  await page.getByLabel('Server name').fill('e2e-web');
  await page.getByLabel('Provider (optional)').fill('Sandbox');
  await page.getByRole('button', { name: 'Continue' }).click();

  // /server-install/{id}: the one-line command and the script behind it.
  await expect(page).toHaveURL(/\/server-install\/\d+$/);
  const serverId = Number(/\/server-install\/(\d+)$/.exec(page.url())?.[1]);
  const commandText = page.getByTestId('install-command');
  await expect(commandText).toHaveText(
    new RegExp(`^curl -fsSL ${PANEL.replaceAll('.', '\\.')}/install/[A-Za-z0-9_-]+ \\| bash$`),
  );
  const command = (await commandText.textContent())!;
  await page.getByRole('button', { name: 'View the script' }).click();
  await expect(page.getByLabel('Install script')).toContainText('#!/usr/bin/env bash');
  await expect(page.getByLabel('Install script')).toContainText('stackdeck-agent');
  const steps = page.getByRole('list', { name: 'Install steps' });
  await expect(steps).toContainText('Waiting for the install command to run on the server');
  await expect(page.getByText('Pending install')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Install e2e-web' })).toBeVisible();

  // The dashboard meanwhile shows it pending (the entry rule now goes /no-servers → /dashboard),
  // under the chosen name, with the cs- name it keeps until the agent connects.
  const other = await page.context().newPage();
  await other.goto('/no-servers');
  await expect(other).toHaveURL(/\/dashboard$/);
  const pendingCard = other.getByRole('article', { name: 'e2e-web' });
  await expect(pendingCard).toContainText('Pending install');
  await expect(pendingCard.getByTestId('server-id')).toHaveText(/^cs-/);
  await expect(pendingCard.getByRole('link', { name: 'Finish install' })).toHaveAttribute(
    'href',
    `/server-install/${serverId}`,
  );
  await other.close();

  // Exactly that command, as root, in a fresh server.
  const sb = await booting!;
  const install = sb.exec(['bash', '-c', command], { timeoutMs: 90_000 });
  // Each event the script posts shows as a step with its code (the install may be quicker
  // than a poll, so every step is checked, not the order they were seen in).
  await expect(steps).toContainText(`Installer started on ${sb.hostname}`, { timeout: 60_000 });
  const result = await install;
  expect(result.code, result.stderr).toBe(0);

  const connected = page.getByRole('status').filter({ hasText: 'Connected' });
  await expect(connected).toContainText('e2e-web is connected', { timeout: 30_000 });
  for (const step of [
    'Downloading the agent',
    "Writing the agent's configuration",
    'Installing the agent service',
    'Starting the agent',
    'Agent started; waiting for it to connect',
    'The agent is connected',
  ])
    await expect(steps).toContainText(step);
  await expect(steps).toContainText('code 9');
  // The panel's code-10 event is the connection's step, once (no step added beside it).
  await expect(steps).toContainText('code 10');
  await expect(steps.getByText('The agent is connected')).toHaveCount(1);
  await expect(steps).not.toContainText('The agent connected to the panel');
  await expect(steps.getByRole('progressbar', { name: 'In progress' })).toHaveCount(0);
  await expect(page.getByRole('progressbar', { name: 'Install progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await expect(page.getByRole('link', { name: 'Open the server' })).toHaveAttribute(
    'href',
    `/server-summary/${serverId}`,
  );
  // The command is gone with the install key.
  await expect(page.getByTestId('install-command')).toHaveCount(0);
  await shot(page, 'install-connected');

  // The dashboard card: connected, with what the agent reported.
  await page.goto('/dashboard');
  const card = page.getByRole('article', { name: 'e2e-web' });
  await expect(card).toContainText('Connected');
  await expect(card.getByTestId('server-id')).toHaveCount(0);
  await expect(card).toContainText('Sandbox');
  await expect(card).toContainText(/Debian|Ubuntu/);
  await expect(card.getByRole('link', { name: 'Open' })).toHaveAttribute(
    'href',
    `/server-summary/${serverId}`,
  );
  expect(await inside(sb, ['pgrep', '-f', '/opt/stackdeck/agent.mjs'])).toBe(true);

  // Remove: typed name confirms; the connected agent stops and removes itself.
  await card.getByRole('button', { name: 'Actions for e2e-web' }).click();
  await page.getByRole('menuitem', { name: 'Remove server' }).click();
  await expect(page).toHaveURL(new RegExp(`/remove-server/${serverId}$`));
  await expect(page.getByText(/it will be stopped and removed from the server/)).toBeVisible();
  const remove = page.getByRole('button', { name: 'Remove server' });
  await expect(remove).toBeDisabled();
  await page.getByLabel("Type the server's name to confirm").fill('e2e-we');
  await expect(remove).toBeDisabled();
  await page.getByLabel("Type the server's name to confirm").fill('e2e-web');
  await shot(page, 'remove-server');
  await remove.click();
  await expect(page).toHaveURL(/\/no-servers$/);

  await expect
    .poll(() => inside(sb, ['pgrep', '-f', '/opt/stackdeck/agent.mjs']), { timeout: 20_000 })
    .toBe(false);
  await expect
    .poll(() => inside(sb, ['test', '-e', '/opt/stackdeck']), { timeout: 10_000 })
    .toBe(false);
  expect(await inside(sb, ['test', '-e', '/etc/init.d/stackdeck-agent'])).toBe(false);

  // The server is gone from the panel too.
  await page.goto(`/server-install/${serverId}`);
  await expect(page).toHaveURL(/\/404$/);
});
