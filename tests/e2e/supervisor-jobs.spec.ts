import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The supervisor pages against a real server: a sandbox with the real agent and supervisord.
 * Each step is checked in the page and on the server (supervisorctl, curl to the program's port).
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-supervisor', services: ['ssh', 'supervisor'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-supervisor';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

const PORT = 18_181;
const sh = async (argv: string[]) => (await sb.sandbox.exec(argv, { timeoutMs: 15_000 })).stdout;
const status = () => sh(['supervisorctl', 'status']);
const answers = async () =>
  sh(['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', `http://127.0.0.1:${PORT}/`]);

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('empty state leads to the form; a bad name and command are shown at their fields', async ({
  page,
}) => {
  sb = await server.ready();
  await signedIn(page);
  await page.goto(`/supervisor-jobs/${sb.serverId}`);
  await expect(page.getByRole('heading', { name: 'No supervisor jobs yet' })).toBeVisible();
  await shot(page, 'supervisor-jobs-empty');

  await page.getByRole('status').getByRole('link', { name: 'Add supervisor job' }).click();
  await expect(page).toHaveURL(new RegExp(`/create-supervisor-job/${sb.serverId}$`));
  await page.getByLabel('Name').fill('Web Server');
  await page.getByLabel('Command').fill('python3 -m http.server ; echo');
  await page.getByLabel('Directory').fill('/tmp');
  await page.getByLabel('Run as').click();
  await page.getByRole('option', { name: 'root', exact: true }).click();
  await page.getByRole('button', { name: 'Add supervisor job' }).click();
  await expect(page.getByText(/starting with a letter/)).toBeVisible();
  await expect(page.getByText(/as the start of a comment/)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/create-supervisor-job/${sb.serverId}$`));
  await shot(page, 'supervisor-create-bad');
});

test('add a job: it runs on the server, answers on its port, and is listed RUNNING', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/create-supervisor-job/${sb.serverId}`);
  await page.getByLabel('Name').fill('web');
  await page.getByLabel('Command').fill(`/usr/bin/python3 -m http.server ${PORT} --bind 127.0.0.1`);
  await page.getByLabel('Directory').fill('/tmp');
  await page.getByLabel('Run as').click();
  await page.getByRole('option', { name: 'root', exact: true }).click();
  await shot(page, 'supervisor-create');
  await page.getByRole('button', { name: 'Add supervisor job' }).click();

  await expect(page).toHaveURL(new RegExp(`/supervisor-jobs/${sb.serverId}$`));
  const row = page.getByRole('row', { name: /web/ });
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByLabel('web_00 RUNNING')).toBeVisible({ timeout: 15_000 });
  expect(await status()).toMatch(/stackdeck-web:stackdeck-web_00\s+RUNNING/);
  await expect.poll(answers).toBe('200');
  await shot(page, 'supervisor-jobs-list');
});

test('stop asks first and closes the port; start brings it back; the output is shown', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/supervisor-jobs/${sb.serverId}`);
  const row = page.getByRole('row', { name: /web/ });
  await row.getByRole('button', { name: 'Stop web', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop web?' });
  await expect(dialog).toBeVisible();
  await shot(page, 'supervisor-stop-confirm');
  await dialog.getByRole('button', { name: 'Stop' }).click();
  await expect(row.getByLabel('web_00 STOPPED')).toBeVisible({ timeout: 15_000 });
  await expect.poll(answers).toBe('000');

  await row.getByRole('button', { name: 'Start web', exact: true }).click();
  await expect(row.getByLabel('web_00 RUNNING')).toBeVisible({ timeout: 15_000 });
  await expect.poll(answers).toBe('200');

  const pid = () => status().then((text) => /pid (\d+)/.exec(text)?.[1]);
  const before = await pid();
  await row.getByRole('button', { name: 'Restart web', exact: true }).click();
  const again = page.getByRole('dialog', { name: 'Restart web?' });
  await expect(again).toBeVisible();
  await shot(page, 'supervisor-restart-confirm');
  await again.getByRole('button', { name: 'Restart' }).click();
  await expect(again).toBeHidden();
  // A new process, not a transient state without a pid.
  await expect.poll(async () => [undefined, before].includes(await pid())).toBe(false);
  await expect(row.getByLabel('web_00 RUNNING')).toBeVisible({ timeout: 15_000 });
  await expect.poll(answers).toBe('200');

  await row.getByRole('button', { name: 'Output of web' }).click();
  const output = page.getByRole('dialog', { name: 'Output of web' });
  await expect(output.getByTestId('job-output')).toContainText('"GET / HTTP/1.1" 200');
  await shot(page, 'supervisor-output');
  await output.getByRole('button', { name: 'Close' }).click();
});

test('delete asks first, naming the job; then the program is gone from the server', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/supervisor-jobs/${sb.serverId}`);
  await page.getByRole('button', { name: 'Delete supervisor job web' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete supervisor job web?' });
  await expect(dialog).toBeVisible();
  await shot(page, 'supervisor-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'No supervisor jobs yet' })).toBeVisible();
  await expect.poll(status).not.toContain('stackdeck-web');
  await expect.poll(answers).toBe('000');
});
