import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-account';

/** Full-page screenshot from the top, where the shell's sticky header and sidebar belong. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
/** The panel's SQLite file of this run (playwright.config.ts: DATA_DIR per port). */
const DB_FILE = `.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}/stackdeck.db`;

/**
 * Servers are created by the servers issue's calls, which do not exist yet; until then the rows
 * are written where the panel reads them, and everything after that goes through the UI.
 */
function addServer(userId: number, server: { name: string; ip4: string; connected: boolean }) {
  const db = new Database(DB_FILE);
  try {
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO servers (uuid, user_id, name, ip4, provider, connected, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'Hetzner', ?, ?, ?)`,
    ).run(randomUUID(), userId, server.name, server.ip4, server.connected ? 1 : 0, now, now);
  } finally {
    db.close();
  }
}

test('without servers, /dashboard leads to /no-servers and its call to action', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/no-servers$/);
  const connect = page.getByRole('link', { name: 'Connect your first server' });
  await expect(connect).toHaveAttribute('href', '/connect-first-server');
  await shot(page, 'no-servers');
});

test('with servers, /no-servers leads to /dashboard, which lists them', async ({ page, api }) => {
  const account = await api.account();
  addServer(account.id, { name: 'web-1', ip4: '203.0.113.10', connected: true });
  addServer(account.id, { name: 'cs-fresh', ip4: '203.0.113.11', connected: false });
  addServer(account.id, { name: 'db-1', ip4: '203.0.113.12', connected: false });

  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/no-servers');
  await expect(page).toHaveURL(/\/dashboard$/);

  const card = (name: string) => page.getByRole('article', { name });
  await expect(card('web-1')).toContainText('203.0.113.10');
  await expect(card('web-1')).toContainText('Hetzner');
  await expect(card('web-1')).toContainText('Connected');
  await expect(card('cs-fresh')).toContainText('Pending install');
  await expect(card('db-1')).toContainText('Disconnected');
  await shot(page, 'dashboard-servers');
});
