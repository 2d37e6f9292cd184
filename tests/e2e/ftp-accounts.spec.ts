import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The FTP accounts page of a web app against a real server: a sandbox with the real agent,
 * nginx, PHP-FPM and Pure-FTPd. Each step is checked on the server with `curl` as FTP client.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({
  serverName: 'e2e-ftp',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'pure-ftpd'],
});
let sb: SandboxServer;
let appId = 0;
let password = '';
const APP = '/home/alice/apps/shop';

const SHOTS = '.tmp/shots-ftp';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${PANEL}/api/v1/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as { id: number };
}

/** curl's exit code logging in (0: in; 67: refused). */
const login = async (user: string, pass: string, extra: string[] = []) =>
  (
    await sb.sandbox.exec(
      [
        'curl',
        '-sS',
        '--max-time',
        '20',
        '--user',
        `${user}:${pass}`,
        ...extra,
        'ftp://127.0.0.1/',
      ],
      { timeoutMs: 30_000 },
    )
  ).code;
const exists = async (file: string) => (await sb.sandbox.exec(['test', '-e', file])).code === 0;

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('no accounts: the empty state leads to the form; a bad name is said at its field', async ({
  page,
}) => {
  sb = await server.ready();
  const uid = sb.account.id;
  const where = `servers/${sb.serverId}/users/${uid}`;
  await post(`sysusers/${where}`, { user_name: 'alice', password: 'a long system password 1' });
  appId = (
    await post(`webstacks/${where}`, { name: 'shop', domains: ['shop.test'], sys_user: 'alice' })
  ).id;
  await sb.sandbox.execOk(['tee', '/tmp/hello.txt'], { input: 'hello\n' });

  await signedIn(page);
  await page.goto(`/ftp-accounts/${sb.serverId}/${appId}`);
  await expect(page.getByRole('heading', { name: 'No FTP accounts yet' })).toBeVisible();
  await shot(page, 'ftp-empty');
  await page.getByRole('status').getByRole('link', { name: 'Add FTP account' }).click();
  await expect(page).toHaveURL(new RegExp(`/ftp-accounts/${sb.serverId}/${appId}\\?new$`));
  await page.getByLabel('User name').fill('Bad Name');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Add FTP account' }).click();
  await expect(page.getByText(/Lower-case letters, digits, _ \. and -/).first()).toBeVisible();
  await page.getByLabel('Folder').fill('../elsewhere');
  await page.getByLabel('User name').fill('shop.ftp');
  await page.getByRole('button', { name: 'Add FTP account' }).click();
  await expect(page.getByText(/stay inside the app's folder/).first()).toBeVisible();
  await shot(page, 'ftp-create-bad');
});

test('add an account in a folder: it uploads there, and the page never shows its password', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/ftp-accounts/${sb.serverId}/${appId}?new`);
  await page.getByLabel('User name').fill('shop.ftp');
  await page.getByRole('button', { name: 'Generate' }).click();
  password = await page.getByLabel('Password', { exact: true }).inputValue();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await page.getByLabel('Folder').fill('public/uploads');
  await shot(page, 'ftp-create');
  await page.getByRole('button', { name: 'Add FTP account' }).click();

  await expect(page).toHaveURL(new RegExp(`/ftp-accounts/${sb.serverId}/${appId}$`));
  const row = page.getByRole('row', { name: /shop\.ftp/ });
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByText('public/uploads')).toBeVisible();
  await expect(page.getByText(password)).toHaveCount(0);
  await shot(page, 'ftp-list');
  expect(await login('shop.ftp', password, ['-T', '/tmp/hello.txt'])).toBe(0);
  expect(await exists(`${APP}/public/uploads/hello.txt`)).toBe(true);
});

test('change the password: the old one is refused, the new one logs in', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/ftp-accounts/${sb.serverId}/${appId}`);
  await page
    .getByRole('row', { name: /shop\.ftp/ })
    .getByRole('link', { name: /Edit/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Change FTP account' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('a brand new ftp password');
  await shot(page, 'ftp-edit');
  await page.getByRole('button', { name: /Save/ }).click();
  await expect(page).toHaveURL(new RegExp(`/ftp-accounts/${sb.serverId}/${appId}$`));
  expect(await login('shop.ftp', password)).toBe(67);
  expect(await login('shop.ftp', 'a brand new ftp password')).toBe(0);
});

test('delete asks first and offers to delete the folder too', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/ftp-accounts/${sb.serverId}/${appId}`);
  await page.getByRole('button', { name: 'Delete shop.ftp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete FTP account shop.ftp?' });
  await dialog.getByLabel(/Delete its folder/).check();
  await shot(page, 'ftp-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('FTP account shop.ftp was deleted, with its folder.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No FTP accounts yet' })).toBeVisible();
  expect(await login('shop.ftp', 'a brand new ftp password')).toBe(67);
  expect(await exists(`${APP}/public/uploads`)).toBe(false);
  expect(await exists(`${APP}/public`)).toBe(true);
});
