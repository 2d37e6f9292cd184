import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';

/**
 * Issue 8, a newcomer's rough edges: the server layout's messages panel, the 30-day statistics
 * axis, the server card's OS name, the server sidebar's Summary and way back, the older summary
 * address, the header shortcuts on phones, and the forms' rhythm.
 */
const SHOTS = '.tmp/shots-shell';
const DATA_DIR = `.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}`;

function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(path.join(DATA_DIR, 'stackdeck.db'));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

async function userWithServer(
  page: Page,
  api: { account: () => Promise<{ email: string; password: string; id: number }> },
  request: APIRequestContext,
) {
  const account = await api.account();
  const login = await request.post('/api/v1/users/login', {
    data: { email: account.email, password: account.password },
  });
  const { Token } = (await login.json()) as { Token: string };
  const res = await request.post(`/api/v1/servers/users/${account.id}?action=create`, {
    headers: { authorization: `Bearer ${Token}` },
    data: { name: 'polish-1' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const serverId = ((await res.json()) as { id: number }).id;
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { account, serverId };
}

test('the messages panel in the server layout shows the server’s activity', async ({
  page,
  api,
  request,
}) => {
  const { account, serverId } = await userWithServer(page, api, request);
  const now = Date.now();
  withDb((db) => {
    const insert = db.prepare(
      'INSERT INTO server_activity (server_id, user_id, message, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    insert.run(
      serverId,
      account.id,
      'Added SSH key laptop for root',
      'done',
      null,
      new Date(now - 120_000).toISOString(),
    );
    insert.run(
      serverId,
      account.id,
      'Restarted nginx',
      'failed',
      'nginx: configuration test failed',
      new Date(now - 60_000).toISOString(),
    );
  });

  await page.goto(`/server-summary/${serverId}`);
  await expect(page.locator('main h1')).toBeVisible();
  await page.getByRole('button', { name: 'Messages' }).click();
  const panel = page.getByRole('dialog', { name: 'Messages' });
  await expect(panel.getByTestId('message')).toHaveCount(2);
  await expect(panel.getByTestId('message').first()).toContainText('Restarted nginx');
  await expect(panel.getByTestId('message').first()).toContainText('Failed');
  await expect(panel.getByTestId('message').nth(1)).toContainText('Added SSH key laptop for root');
  await expect(panel.getByText('No Messages available.')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/messages-server-activity.png` });
  await page.keyboard.press('Escape');

  // Outside the server layout the panel holds the clones only.
  await page.goto('/my-profile');
  await page.getByRole('button', { name: 'Messages' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Messages' }).getByText('No Messages available.'),
  ).toBeVisible();
});

test('server sidebar: Summary first, a way back to all servers; the older summary address', async ({
  page,
  api,
  request,
}) => {
  const { serverId } = await userWithServer(page, api, request);
  await page.goto(`/services/${serverId}`);
  const sidebar = page.getByTestId('sidebar').getByRole('navigation');
  await expect(sidebar.getByRole('link', { name: 'All servers' })).toHaveAttribute(
    'href',
    '/dashboard',
  );
  await expect(sidebar.getByRole('link').nth(1)).toHaveText('Summary');
  await page.screenshot({ path: `${SHOTS}/server-sidebar.png` });
  await sidebar.getByRole('link', { name: 'Summary' }).click();
  await expect(page).toHaveURL(new RegExp(`/server-summary/${serverId}$`));
  await sidebar.getByRole('link', { name: 'All servers' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The older address leads to today's (issue 22).
  await page.goto(`/server-summaryold/${serverId}`);
  await expect(page).toHaveURL(new RegExp(`/server-summary/${serverId}$`));
  await expect(page.getByRole('banner').getByText('Server summary')).toBeVisible();
  await expect(page.getByText('No report from this server yet', { exact: false })).toBeVisible();
  await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Summary' })).toBeVisible();
});

test('the 30-day statistics axis names each date once', async ({ page, api, request }) => {
  const { serverId } = await userWithServer(page, api, request);
  const now = Math.floor(Date.now() / 1000);
  withDb((db) => {
    const insert = db.prepare(
      'INSERT INTO server_stats (server_id, resolution, at, cpu, load, memory_used, memory_total, disk_used, disk_total, rx_rate, tx_rate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (let at = now - 30 * 86400; at <= now; at += 1800) {
        const wave = Math.sin(at / 20000);
        insert.run(
          serverId,
          1800,
          at - (at % 1800),
          30 + 20 * wave,
          1 + wave,
          2e9,
          8e9,
          4e10,
          1e11,
          1e5,
          5e4,
        );
      }
      for (let at = now - 86400; at <= now; at += 60) {
        insert.run(serverId, 60, at - (at % 60), 40, 1, 2e9, 8e9, 4e10, 1e11, 1e5, 5e4);
      }
    })();
  });
  await page.goto(`/server-stats/${serverId}`);
  const cpu = page.locator('section[aria-labelledby="chart-cpu"]');
  // The CPU chart's y ticks end in %; the others are the time axis.
  const ticks = cpu.locator('.recharts-cartesian-axis-tick-value').filter({ hasNotText: /%$/ });
  await expect(ticks.first()).toBeVisible();
  const day = await ticks.allTextContents();
  expect(new Set(day).size, day.join(' | ')).toBe(day.length);
  expect(day.filter((label) => /\d:\d\d/.test(label)).length).toBeGreaterThan(2);

  await page.getByRole('button', { name: '30 days' }).click();
  await expect(ticks.first()).not.toHaveText(/\d:\d\d/);
  const month = await ticks.allTextContents();
  expect(month.length).toBeGreaterThanOrEqual(4);
  expect(new Set(month).size, month.join(' | ')).toBe(month.length);
  await page.screenshot({ path: `${SHOTS}/stats-30-days.png`, fullPage: true });
});

test('the dashboard card shows a long OS name in full', async ({ page, api, request }) => {
  const { serverId } = await userWithServer(page, api, request);
  const os = 'Debian GNU/Linux 12 (bookworm) x86_64, kernel 6.1.0-18-cloud-amd64';
  withDb((db) => db.prepare('UPDATE servers SET os_version = ? WHERE id = ?').run(os, serverId));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');
  const fact = page.getByTestId('card-os').first();
  await expect(fact).toHaveText(os);
  // Nothing is cut: the text fits its box (it wraps instead).
  const cut = await fact.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(cut).toBe(false);
  await page.screenshot({ path: `${SHOTS}/dashboard-card-os.png`, fullPage: true });
});

test('on a phone the header shortcuts stay a tap away', async ({ page, api, request }) => {
  await userWithServer(page, api, request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/my-profile');
  await expect(page.getByRole('navigation', { name: 'Shortcuts' })).toBeHidden();
  await page.getByRole('button', { name: 'More shortcuts' }).click();
  const menu = page.getByRole('menu', { name: 'More shortcuts' });
  await expect(menu.getByRole('menuitem', { name: 'Support' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'DNS' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/mobile-shortcuts.png` });
  await menu.getByRole('menuitem', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/ticket-list$/);
});

/** Each form's inputs and the button beside or under them share a height; helper text has room. */
async function checkRhythm(page: Page, name: string) {
  const fields = page.locator('main .MuiInputBase-root:visible');
  const buttons = page.locator('main form button[type="submit"]:visible');
  await expect(fields.first()).toBeVisible();
  const heights = await fields.evaluateAll((all) =>
    all.map((el) => Math.round(el.getBoundingClientRect().height)).filter((h) => h < 60),
  );
  const single = heights.filter((h) => h < 50);
  expect(new Set(single).size, `${name}: input heights ${single.join(',')}`).toBeLessThanOrEqual(1);
  if ((await buttons.count()) > 0 && single.length) {
    const button = await buttons
      .first()
      .evaluate((el) => Math.round(el.getBoundingClientRect().height));
    expect(
      Math.abs(button - single[0]!),
      `${name}: button ${button} vs input ${single[0]}`,
    ).toBeLessThanOrEqual(2);
  }
  // Helper text never touches the next field.
  const gaps = await page.locator('main .MuiFormControl-root:visible').evaluateAll((all) => {
    const out: number[] = [];
    for (let i = 0; i + 1 < all.length; i += 1) {
      const a = all[i]!.getBoundingClientRect();
      const b = all[i + 1]!.getBoundingClientRect();
      const helper = all[i]!.querySelector('.MuiFormHelperText-root');
      if (
        helper &&
        helper.textContent?.trim() &&
        Math.abs(a.left - b.left) < 2 &&
        b.top >= a.bottom - 1
      ) {
        out.push(Math.round(b.top - helper.getBoundingClientRect().bottom));
      }
    }
    return out;
  });
  for (const gap of gaps)
    expect(gap, `${name}: helper text to next field`).toBeGreaterThanOrEqual(8);
  await page.screenshot({ path: `${SHOTS}/form-${name}.png`, fullPage: true });
}

test('one form rhythm: inputs and buttons match, helper text has room', async ({
  page,
  api,
  request,
}) => {
  await userWithServer(page, api, request);
  for (const [name, to] of [
    ['create-ticket', '/create-ticket'],
    ['create-team', '/create-team'],
    ['connect-server', '/connect-server'],
    ['my-profile', '/my-profile'],
  ] as const) {
    await page.goto(to);
    await page.waitForLoadState('networkidle');
    await checkRhythm(page, name);
  }
});
