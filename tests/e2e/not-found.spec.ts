import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';

/**
 * Issue 8: one not-found pattern for every record page. A missing record shows its not-found
 * state at once (no retries on a 404), in the page's layout, with the way back to its list.
 */
const SHOTS = '.tmp/shots-shell';

async function tokenOf(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/v1/users/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { Token: string }).Token;
}

/** Counts the API calls to a path, to see that a 404 is asked once. */
function countCalls(page: Page, part: string) {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(part)) calls.push(request.url());
  });
  return calls;
}

test('a missing ticket shows "No such ticket" at once, with the way back', async ({
  page,
  api,
}) => {
  const account = await api.account();
  // React-query's retries wait on the page's timers: the test runs them forward below.
  await page.clock.install();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/ticket-list');
  await expect(page.locator('main h1')).toBeVisible();

  const calls = countCalls(page, '987654');
  const fence = countCalls(page, 'healthz?after-retries');
  await page.evaluate(() => {
    window.history.pushState({}, '', '/ticket-response/987654');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  const state = page.getByTestId('not-found-state');
  await expect(state.getByRole('heading', { name: 'No such ticket' })).toBeVisible();
  // Shown on the first answer: react-query's default would ask three more times, a second
  // and more apart, before giving up. Nor does it ask again later: 10 s of the page's time
  // run, then one more call the page makes, which the browser reports after any retry.
  expect(calls).toHaveLength(1);
  await page.clock.runFor(10_000);
  await page.evaluate(() => fetch('/healthz?after-retries'));
  await expect.poll(() => fence.length).toBe(1);
  expect(calls).toHaveLength(1);
  // Still in the profile layout, with its sidebar.
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/not-found-ticket.png`, fullPage: true });
  await state.getByRole('link', { name: 'Back to your tickets' }).click();
  await expect(page).toHaveURL(/\/ticket-list$/);
});

test('a bad team id, a bad zone id and a bad ticket id: the same state, a way back', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);

  await page.goto('/edit-team/987654');
  const team = page.getByTestId('not-found-state');
  await expect(team.getByRole('heading', { name: 'No such team' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/not-found-team.png`, fullPage: true });
  await team.getByRole('link', { name: 'Back to teams' }).click();
  await expect(page).toHaveURL(/\/team(-manager)?$/);

  await page.goto('/add-dns/987654');
  const zone = page.getByTestId('not-found-state');
  await expect(zone.getByRole('heading', { name: 'No such DNS zone' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/not-found-zone.png`, fullPage: true });
  await zone.getByRole('link', { name: 'Back to DNS records' }).click();
  // /dns-records goes on to /dns while the account has no DNS provider (entry rule).
  await expect(page).toHaveURL(/\/dns(-records)?$/);

  await page.goto('/ticket-response/not-a-number');
  await expect(
    page.getByTestId('not-found-state').getByRole('heading', { name: 'No such ticket' }),
  ).toBeVisible();
});

test('another user’s team: not found, never their data', async ({ page, api, request }) => {
  const owner = await api.account();
  const token = await tokenOf(request, owner.email, owner.password);
  const made = await request.post(`/api/v1/teams/users/${owner.id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Private crew' },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const teamId = ((await made.json()) as { id: number }).id;

  const other = await api.account();
  await openSignedIn(page, other.email, other.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto(`/edit-team/${teamId}`);
  await expect(
    page.getByTestId('not-found-state').getByRole('heading', { name: 'No such team' }),
  ).toBeVisible();
  await expect(page.getByText('Private crew')).toHaveCount(0);
});

test('an unknown server id goes to the 404 page (spec: a 404 fetching a server)', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  // A 4xx is final (dataProvider/queryClient.ts): the server is asked for once, not retried.
  const asked: string[] = [];
  page.on('request', (req) => {
    if (/\/api\/v1\/.*987654/.test(req.url())) asked.push(req.url());
  });
  await page.goto('/server-summary/987654');
  await expect(page).toHaveURL(/\/404$/);
  expect(asked.length).toBeGreaterThan(0);
  expect(new Set(asked).size).toBe(asked.length);
});
