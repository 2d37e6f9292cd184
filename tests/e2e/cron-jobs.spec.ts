import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The cron pages, the first built on the generic list/create/edit from the declaration,
 * against a real server: a sandbox with the real agent. Each step is checked in the page and
 * in the server's crontab.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-cron', services: ['ssh', 'cron'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-cron';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function crontab(user = 'root') {
  const result = await sb.sandbox.exec(['crontab', '-l', '-u', user], { timeoutMs: 15_000 });
  return result.code === 0 ? result.stdout : '';
}

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

const MARK = '/tmp/cron-e2e-ran';

test('empty state leads to the form; a bad schedule is shown at its field', async ({ page }) => {
  sb = await server.ready();
  await signedIn(page);
  await page.goto(`/cron-jobs/${sb.serverId}`);
  await expect(page.getByRole('heading', { name: 'No cron jobs yet' })).toBeVisible();
  await shot(page, 'cron-jobs-empty');
  // The server sidebar leads here too.
  await expect(page.getByRole('link', { name: /cron jobs/i }).first()).toBeVisible();

  // The empty state's own way on.
  await page.getByRole('status').getByRole('link', { name: 'Add cron job' }).click();
  await expect(page).toHaveURL(new RegExp(`/create-cron-job/${sb.serverId}$`));
  await expect(page.getByRole('heading', { name: 'Add a cron job' })).toBeVisible();

  await page.getByLabel('Name').fill('e2e marker');
  await page.getByLabel('Run as').click();
  await page.getByRole('option', { name: 'root', exact: true }).click();
  const when = page.getByRole('combobox', { name: 'When' });
  await when.fill('61 * * * *');
  await page.getByLabel('Command').fill(`touch ${MARK}`);
  await page.getByRole('button', { name: 'Add cron job' }).click();
  // The declaration's own check, at its field; nothing was sent.
  await expect(page.getByText('minute: "61" is not between 0 and 59')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/create-cron-job/${sb.serverId}$`));
  await shot(page, 'cron-create-bad-schedule');
});

test('create a job: it lands in the crontab and is listed active', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/create-cron-job/${sb.serverId}`);
  await page.getByLabel('Name').fill('e2e marker');
  await page.getByLabel('Run as').click();
  await page.getByRole('option', { name: 'root', exact: true }).click();
  // A preset from the list, explained in words under the input.
  const when = page.getByRole('combobox', { name: 'When' });
  await when.click();
  await page.getByRole('option', { name: /Every minute/ }).click();
  await expect(when).toHaveValue('* * * * *');
  await expect(page.getByTestId('schedule-words')).toHaveText(/Every minute/);
  await page.getByLabel('Command').fill(`touch ${MARK}`);
  await shot(page, 'cron-create');
  await page.getByRole('button', { name: 'Add cron job' }).click();

  await expect(page).toHaveURL(new RegExp(`/cron-jobs/${sb.serverId}$`));
  const row = page.getByRole('row', { name: /e2e marker/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Every minute');
  await expect(row.getByText('Active')).toBeVisible();
  await expect.poll(() => crontab()).toContain(`touch ${MARK}`);
  await shot(page, 'cron-jobs-list');
});

test("the server's refusal lands at its field: a user gone from the server", async ({ page }) => {
  // A system user the panel made, then removed by hand on the server.
  const headers = { authorization: `Bearer ${sb.token}` };
  const made = await page.request.post(
    `/api/v1/sysusers/servers/${sb.serverId}/users/${sb.account.id}`,
    { headers, data: { user_name: 'e2egone', password: 'a long e2e password 1' } },
  );
  expect(made.status(), await made.text()).toBe(201);
  expect((await sb.sandbox.exec(['userdel', 'e2egone'], { timeoutMs: 15_000 })).code).toBe(0);

  await signedIn(page);
  await page.goto(`/create-cron-job/${sb.serverId}`);
  await page.getByLabel('Name').fill('ghost');
  await page.getByLabel('Run as').click();
  await page.getByRole('option', { name: 'e2egone', exact: true }).click();
  await page.getByRole('combobox', { name: 'When' }).fill('@hourly');
  await page.getByLabel('Command').fill('true');
  await page.getByRole('button', { name: 'Add cron job' }).click();
  const runAs = page.locator('.MuiFormControl-root', {
    has: page.getByText('Run as', { exact: true }),
  });
  await expect(runAs).toContainText('The system user e2egone does not exist on the server');
  // Nothing was kept: the form still holds what was typed.
  await expect(page).toHaveURL(new RegExp(`/create-cron-job/${sb.serverId}$`));
  await expect(page.getByLabel('Command')).toHaveValue('true');
  await shot(page, 'cron-create-server-refusal');
  await page.goto(`/cron-jobs/${sb.serverId}`);
  await expect(page.getByRole('row', { name: /e2e marker/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /ghost/ })).toHaveCount(0);
});

test('run a job now: it runs as its user and its output is shown', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/cron-jobs/${sb.serverId}`);
  await sb.sandbox.exec(['rm', '-f', MARK], { timeoutMs: 15_000 });
  await page.getByRole('button', { name: 'Run cron job "e2e marker" now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run cron job "e2e marker" now' });
  await expect(dialog.getByTestId('run-result')).toContainText('Exited with code 0');
  expect((await sb.sandbox.exec(['test', '-e', MARK], { timeoutMs: 15_000 })).code).toBe(0);
  await shot(page, 'cron-run-now');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('edit a job: the schedule changes on the server', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/cron-jobs/${sb.serverId}`);
  await page.getByRole('link', { name: 'Edit cron job "e2e marker"' }).click();
  await expect(page).toHaveURL(new RegExp(`/edit-cron-job/${sb.serverId}\\?job=\\d+$`));
  const when = page.getByRole('combobox', { name: 'When' });
  await expect(when).toHaveValue('* * * * *');
  await when.fill('*/5 * * * *');
  await expect(page.getByTestId('schedule-words')).toHaveText('Every 5 minutes');
  await shot(page, 'cron-edit');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(new RegExp(`/cron-jobs/${sb.serverId}$`));
  const row = page.getByRole('row', { name: /e2e marker/ });
  await expect(row).toContainText('Every 5 minutes');
  await expect.poll(() => crontab()).toContain(`*/5 * * * * touch ${MARK}`);
});

test('check against the server shows a job missing from the crontab', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/cron-jobs/${sb.serverId}`);
  const row = page.getByRole('row', { name: /e2e marker/ });
  await expect(row.getByText('Active')).toBeVisible();
  // Someone empties root's crontab by hand on the server.
  expect((await sb.sandbox.exec(['crontab', '-r', '-u', 'root'], { timeoutMs: 15_000 })).code).toBe(
    0,
  );
  await page.getByRole('button', { name: 'Check against the server' }).click();
  await expect(page.getByTestId('sync-notice')).toBeVisible();
  await expect(row.getByText('Missing on the server')).toBeVisible();
  await shot(page, 'cron-jobs-drift');
  // Saving the job writes it again.
  await page.getByRole('link', { name: 'Edit cron job "e2e marker"' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/cron-jobs/${sb.serverId}$`));
  await expect.poll(() => crontab()).toContain(`touch ${MARK}`);
});

test('delete asks first, naming the job; then the line leaves the crontab', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/cron-jobs/${sb.serverId}`);
  const remove = page.getByRole('button', { name: 'Delete cron job "e2e marker"' });
  await remove.click();
  const dialog = page.getByRole('dialog', { name: 'Delete cron job "e2e marker"?' });
  await expect(dialog).toBeVisible();
  await shot(page, 'cron-delete-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /e2e marker/ })).toBeVisible();

  await remove.click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'No cron jobs yet' })).toBeVisible();
  await expect.poll(() => crontab()).not.toContain(MARK);
});

test('an edit address naming no job leads back to the list', async ({ page }) => {
  await signedIn(page);
  for (const job of ['999999', 'abc']) {
    await page.goto(`/edit-cron-job/${sb.serverId}?job=${job}`);
    await expect(page).toHaveURL(new RegExp(`/cron-jobs/${sb.serverId}$`));
  }
});

test('the main sidebar lists the servers, each leading to its jobs', async ({ page }) => {
  await signedIn(page);
  await page.goto('/cron-job');
  await expect(page.getByRole('heading', { name: 'Cron jobs' })).toBeVisible();
  const entry = page.getByRole('link', { name: new RegExp(sb.serverName) });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('No jobs');
  await shot(page, 'cron-servers');
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/cron-jobs/${sb.serverId}$`));
});

test('an offline server keeps a new job pending, to apply when it reconnects', async ({ page }) => {
  // A second server of the same user whose agent never connected.
  const made = await page.request.post(`/api/v1/servers/users/${sb.account.id}?action=create`, {
    headers: { authorization: `Bearer ${sb.token}` },
    data: { name: 'e2e-cron-offline', provider: 'Sandbox' },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const offline = ((await made.json()) as { id: number }).id;

  await signedIn(page);
  await page.goto(`/create-cron-job/${offline}`);
  await expect(page.getByTestId('offline-saves')).toBeVisible();
  await page.getByLabel('Name').fill('waits');
  await page.getByLabel('Run as').click();
  await page.getByRole('option', { name: 'root', exact: true }).click();
  await page.getByRole('combobox', { name: 'When' }).fill('@daily');
  await expect(page.getByTestId('schedule-words')).toHaveText(/Every day at 00:00/);
  await page.getByLabel('Command').fill('true');
  await page.getByRole('button', { name: 'Add cron job' }).click();

  await expect(page).toHaveURL(new RegExp(`/cron-jobs/${offline}$`));
  await expect(page.getByText(/applied when it reconnects/)).toBeVisible();
  const row = page.getByRole('row', { name: /waits/ });
  await expect(row.getByText('Pending')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check against the server' })).toBeDisabled();
  await shot(page, 'cron-jobs-offline-pending');
});
