import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIRequestContext, Page } from '@playwright/test';
import { type FakeReleaseSources, startFakeReleaseSources } from '../fakes/releaseSources';
import { type Api, E2E_ADMIN, expect, openSignedIn, test } from './fixtures';

/**
 * An app without a usable release source, as people meet it (issue 22): a user's install page
 * says why before the form, in a notice that stays; an admin's has the way to fix it, the App
 * releases page, where "Check for new releases" pins the newest version and its published
 * SHA-256 from the project's hosts (their local fake, RELEASE_SOURCES_URL in
 * playwright.config.ts), and the install page has nothing more to say.
 *
 * Moodle's official source is the panel's: it is put back unchecked before and after, so a
 * retry starts where the first try did and the other specs find the seeded catalogue.
 */
test.describe.configure({ mode: 'serial' });

const PORT = Number(process.env.E2E_PORT ?? 4173) + 3;
const DB_FILE = path.join(`.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}`, 'stackdeck.db');
const MOODLE = { version: '5.0.2', bytes: randomBytes(4096) };
const MOODLE_SHA256 = createHash('sha256').update(MOODLE.bytes).digest('hex');
const REASON =
  'No release of Moodle is pinned yet: an admin checks for new releases under Admin → App releases';

const SHOTS = '.tmp/shots-releases';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

/** Moodle's official source as a fresh panel seeds it: no version, no hash, never checked. */
function uncheckMoodle() {
  const db = new Database(DB_FILE);
  try {
    db.prepare(
      `UPDATE app_releases SET version = '', url = '', sha256 = '', size = NULL, checked_at = NULL
       WHERE app = 'moodle' AND source = 'official'`,
    ).run();
  } finally {
    db.close();
  }
}

/** A server of the account's own (never connected: the install page is all this spec needs). */
async function serverOf(
  request: APIRequestContext,
  account: { id: number; token: string },
  name: string,
): Promise<number> {
  const res = await request.post(`/api/v1/servers/users/${account.id}?action=create`, {
    headers: { authorization: `Bearer ${account.token}` },
    data: { name },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return ((await res.json()) as { id: number }).id;
}

async function userWithServer(api: Api, request: APIRequestContext) {
  const account = await api.account();
  const { token } = await api.login(account.email, account.password);
  return { account, serverId: await serverOf(request, { id: account.id, token }, 'e2e-sources') };
}

let fake: FakeReleaseSources;
test.beforeAll(async () => {
  fake = await startFakeReleaseSources({ moodle: MOODLE }, PORT);
  uncheckMoodle();
});
test.afterAll(async () => {
  uncheckMoodle();
  await fake?.close();
});

test('a user’s install page says why Moodle cannot be installed, before the form, and it stays', async ({
  page,
  api,
  request,
}) => {
  const { account, serverId } = await userWithServer(api, request);
  // The page's timers on a clock the test moves forward: a toast would be gone after it.
  await page.clock.install();
  await openSignedIn(page, account.email, account.password, `/install-moodle/${serverId}`);
  await expect(page.getByRole('heading', { name: 'Install Moodle' })).toBeVisible();
  const notice = page.getByTestId('source-notice');
  await expect(notice).toHaveText(`${REASON}. Ask your administrator.`);
  await expect(notice.getByRole('link')).toHaveCount(0);
  // Before anything is typed.
  await expect(page.getByLabel('App name')).toHaveValue('');
  await shot(page, 'user-notice');

  await page.getByLabel('App name').fill('school');
  await page.getByLabel('Domains').fill('school.localhost');
  await page.clock.runFor(60_000);
  await expect(notice).toHaveText(`${REASON}. Ask your administrator.`);
  await expect(page.getByRole('button', { name: 'Install Moodle' })).toBeVisible();
  await shot(page, 'user-notice-stays');
});

test('an admin follows the notice to App releases and pins Moodle’s newest release', async ({
  page,
  api,
  request,
}) => {
  const admin = await api.login(E2E_ADMIN.email, E2E_ADMIN.password);
  const serverId = await serverOf(request, admin, 'e2e-sources-admin');
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password, `/install-moodle/${serverId}`);
  const notice = page.getByTestId('source-notice');
  await expect(notice).toContainText(`${REASON}.`);
  await expect(notice).not.toContainText('Ask your administrator');
  const fix = notice.getByRole('link', { name: 'Open App releases' });
  await expect(fix).toBeVisible();
  await shot(page, 'admin-notice');

  await fix.click();
  await expect(page).toHaveURL(/\/admin\/app-releases$/);
  const row = page.getByRole('row', { name: /Moodle.*Official \(download\.moodle\.org\)/ });
  await expect(row).toContainText('not checked yet');
  await shot(page, 'admin-before-check');

  await row.getByRole('button', { name: 'Check for new releases of Moodle' }).click();
  await expect(
    page.getByText(`Moodle 5.0.2 is pinned (SHA-256 ${MOODLE_SHA256.slice(0, 12)}…)`),
  ).toBeVisible();
  // The row as pinned: the version, the source it came from, the hash the project published.
  await expect(row).toContainText('5.0.2');
  await expect(row).toContainText('Official (download.moodle.org)');
  await expect(row).toContainText(`${MOODLE_SHA256.slice(0, 12)}…`);
  await expect(row.getByTitle(MOODLE_SHA256)).toBeVisible();
  await expect(row).not.toContainText('not checked yet');
  expect(fake.calls).toEqual([
    '/download.moodle.org/releases/latest/',
    '/download.moodle.org/download.php/direct/stable500/moodle-5.0.2.tgz.sha256',
  ]);
  await shot(page, 'admin-pinned');

  // Back on the install page: nothing stands in the way any more.
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Install Moodle' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Install Moodle' })).toBeVisible();
  await expect(page.getByTestId('source-notice')).toHaveCount(0);
  await shot(page, 'admin-install-page-after');
});
