import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';

/**
 * Issue 8: a menu entry never leads to /404. For each role, every entry shown in every menu it
 * sees (main and profile sidebars, server sidebar, admin menu, header shortcuts and their phone
 * overflow, the account menu) is followed, and none lands on /404, /403 or an error page.
 */
test.describe.configure({ timeout: 180_000 });

const DATA_DIR = `.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}`;

function sql(statement: string, ...args: unknown[]) {
  const db = new Database(path.join(DATA_DIR, 'stackdeck.db'));
  try {
    db.prepare(statement).run(...args);
  } finally {
    db.close();
  }
}

async function createServer(request: APIRequestContext, email: string, password: string) {
  const login = await request.post('/api/v1/users/login', { data: { email, password } });
  const { Token, User } = (await login.json()) as { Token: string; User: { id: number } };
  const res = await request.post(`/api/v1/servers/users/${User.id}?action=create`, {
    headers: { authorization: `Bearer ${Token}` },
    data: { name: 'walk-1' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return ((await res.json()) as { id: number }).id;
}

async function hrefs(links: Locator): Promise<string[]> {
  return links.evaluateAll((all) => all.map((link) => link.getAttribute('href') ?? ''));
}

/** Opens a path and checks it is a real page: not /404 or /403, no crash screen. */
async function expectPage(page: Page, to: string, from: string) {
  await page.goto(to);
  await page.waitForLoadState('networkidle');
  const where = `${to} (from ${from})`;
  expect(new URL(page.url()).pathname, where).not.toMatch(/^\/(404|403)$/);
  await expect(page.getByRole('heading', { name: 'Something went wrong' }), where).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Page not found' }), where).toHaveCount(0);
}

/** The entries a person can see from `start`, menu by menu. */
async function shownEntries(page: Page, start: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const add = (list: string[], menu: string) => {
    for (const to of list) if (to && !found.has(to)) found.set(to, `${menu} on ${start}`);
  };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(start);
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const sidebar = page.getByTestId('sidebar');
  if (await sidebar.count())
    add(await hrefs(sidebar.getByRole('navigation').getByRole('link')), 'sidebar');
  const shortcuts = page.getByRole('navigation', { name: 'Shortcuts' });
  if (await shortcuts.count()) add(await hrefs(shortcuts.getByRole('link')), 'header shortcuts');
  add(
    await hrefs(page.getByRole('contentinfo').getByRole('link', { name: 'Dashboard' })),
    'footer',
  );
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  add(await hrefs(page.getByRole('menu').locator('a[href]')), 'account menu');
  await page.keyboard.press('Escape');
  // Phones: the shortcuts move to an overflow menu.
  await page.setViewportSize({ width: 390, height: 844 });
  const more = page.getByRole('button', { name: 'More shortcuts' });
  if (await more.isVisible()) {
    await more.click();
    await expect(page.getByRole('menu')).toBeVisible();
    add(await hrefs(page.getByRole('menu').locator('a[href]')), 'phone shortcuts');
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return found;
}

async function walk(page: Page, starts: string[]) {
  const all = new Map<string, string>();
  for (const start of starts) {
    for (const [to, from] of await shownEntries(page, start)) if (!all.has(to)) all.set(to, from);
  }
  expect(all.size).toBeGreaterThan(3);
  for (const [to, from] of all) await expectPage(page, to, from);
  return [...all.keys()];
}

test('a user: profile and server sidebars, shortcuts, account menu', async ({
  page,
  api,
  request,
}) => {
  const account = await api.account();
  const serverId = await createServer(request, account.email, account.password);
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const seen = await walk(page, ['/my-profile', `/server-summary/${serverId}`]);
  expect(seen).toEqual(
    expect.arrayContaining(['/dashboard', '/ticket-list', `/server-summary/${serverId}`]),
  );
});

test('admin staff: the admin menu and the user menus', async ({ page, api }) => {
  const account = await api.account();
  sql('UPDATE users SET is_admin_staff = 1 WHERE id = ?', account.id);
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  const seen = await walk(page, ['/admin/users', '/my-profile']);
  expect(seen).toContain('/admin/users');
  expect(seen).not.toContain('/admin/dashboard');
});

test('an admin: the admin menu and the user menus', async ({ page }) => {
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const seen = await walk(page, ['/admin/dashboard', '/my-profile']);
  expect(seen).toEqual(expect.arrayContaining(['/admin/dashboard', '/admin/users']));
});
