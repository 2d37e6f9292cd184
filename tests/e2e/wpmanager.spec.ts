import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { serveWordpress } from '../system/harness/releaseArchives';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The WordPress manager's page against a real WordPress the panel installed in a sandbox: the
 * sidebar's entry in place of the account summary, the general settings (the title as a
 * visitor sees it), a user added and deleted, a plugin activated.
 */
// Its install takes the default WordPress release, which wordpress.spec.ts and wpmanager.spec.ts
// each pin (playwright.config.ts, locks): the two never run at the same time.
test.describe.configure({ mode: 'serial', timeout: 240_000, lock: 'default-wordpress-release' });

const server = useSandboxServer({
  serverName: 'e2e-wpmanager',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'mariadb'],
});
let sb: SandboxServer;

const SHOTS = '.tmp/shots-wpmanager';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${PANEL}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Pins the release, installs WordPress on blog.test through the API, waits for the task. */
async function installedBlog(): Promise<number> {
  const release = await serveWordpress(sb.sandbox, 18772);
  const login = await api('', 'POST', 'users/login', E2E_ADMIN);
  const pinned = await api(String(login.body.Token), 'POST', 'admin/app-releases', {
    app: 'wordpress',
    version: `6.1.9-m${Date.now() % 100000}`,
    url: release.url,
    sha256: release.sha256,
    format: 'tar.gz',
    is_default: true,
  });
  expect(pinned.status, JSON.stringify(pinned.body)).toBe(201);
  const uid = sb.account.id;
  const user = await api(sb.token, 'POST', `sysusers/servers/${sb.serverId}/users/${uid}`, {
    user_name: 'wpuser',
    password: 'a long system password 1',
  });
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const made = await api(sb.token, 'POST', `wordpress/servers/${sb.serverId}/users/${uid}`, {
    name: 'blog',
    domains: ['blog.test'],
    sys_user: 'wpuser',
    title: 'Stackdeck Managed Blog',
    admin_user: 'editor1',
    admin_email: 'editor@example.com',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(202);
  for (let i = 0; i < 400; i++) {
    const task = await api(
      sb.token,
      'GET',
      `clone-events/users/${uid}?id=${String(made.body.task_id)}`,
    );
    const status = (task.body.data as { status: string }[])[0]?.status;
    if (status === 'completed') return Number(made.body.webapp_id);
    if (status !== 'running') throw new Error(`install ${status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the install did not end');
}

test('manages a WordPress site: settings, users, plugins', async ({ page }) => {
  sb = await server.ready();
  const appId = await installedBlog();

  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/account-summary/${sb.serverId}/${appId}`);
  // The sidebar switches to the manager for a WordPress app.
  const entry = page.getByRole('link', { name: 'WordPress Manager' }).first();
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/wordpress-manager/${sb.serverId}/${appId}$`));
  await expect(page.getByRole('heading', { name: 'WordPress manager' })).toBeVisible();

  // General settings: the title, seen by a visitor.
  const title = page.getByLabel('Site title');
  await expect(title).toHaveValue('Stackdeck Managed Blog');
  await shot(page, 'wpmanager-general');
  await title.fill('Renamed From The Panel');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The setting was changed.')).toBeVisible();
  const home = await sb.sandbox.execOk([
    'curl',
    '-s',
    '--resolve',
    'blog.test:80:127.0.0.1',
    'http://blog.test/',
  ]);
  expect(home.stdout).toContain('Renamed From The Panel');

  // Users: add one, then delete it after the question.
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByRole('cell', { name: 'editor1', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Login').fill('author1');
  await dialog.getByLabel('Mail address').fill('author1@example.com');
  await dialog.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Author' }).click();
  await dialog.getByLabel('Password').fill('a long author password 7');
  await shot(page, 'wpmanager-add-user');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('cell', { name: 'author1', exact: true })).toBeVisible();
  await shot(page, 'wpmanager-users');
  await page.getByRole('button', { name: 'Delete author1' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('cell', { name: 'author1', exact: true })).toHaveCount(0);

  // Plugins: Akismet activated.
  await page.getByRole('tab', { name: 'Plugins' }).click();
  await page.getByRole('button', { name: /^Activate Akismet/ }).click();
  await expect(page.getByRole('button', { name: /^Deactivate Akismet/ })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await shot(page, 'wpmanager-plugins');
});
