import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser } from '@playwright/test';
import { type Account, expect, test, openSignedIn } from './fixtures';

/**
 * Issue 8: /dashboard/{uuid} shows a transfer offer only when there is one for the signed-in
 * user, open; an unknown, foreign, accepted or void offer shows its state with the way back.
 */
const SHOTS = '.tmp/shots-server';

async function tokenOf(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/v1/users/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { Token: string }).Token;
}

/** A server of the owner's, offered to each recipient through the API (they get a mail). */
async function serverOffered(
  request: APIRequestContext,
  owner: Account,
  name: string,
  to: Account[],
): Promise<void> {
  const token = await tokenOf(request, owner.email, owner.password);
  const headers = { authorization: `Bearer ${token}` };
  const made = await request.post(`/api/v1/servers/users/${owner.id}?action=create`, {
    headers,
    data: { name },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { id } = (await made.json()) as { id: number };
  for (const recipient of to) {
    const res = await request.post(`/api/v1/transfer/servers/${id}/users/${owner.id}`, {
      headers,
      data: { email: recipient.email },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
}

async function browserOf(browser: Browser, account: Account) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  return { context, page };
}

test('an unknown or malformed offer link shows "No such transfer offer" and the way back', async ({
  page,
  api,
}) => {
  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/no-servers$/);

  await page.goto(`/dashboard/${randomUUID()}`);
  const state = page.getByTestId('not-found-state');
  await expect(state.getByRole('heading', { name: 'No such transfer offer' })).toBeVisible();
  await expect(state).toContainText('names no server transfer offered to you');
  // No offer, no button to accept it.
  await expect(page.getByRole('button', { name: 'Accept the server' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/transfer-not-found.png`, fullPage: true });

  await page.goto('/dashboard/not-a-uuid');
  await expect(
    page.getByTestId('not-found-state').getByRole('heading', { name: 'No such transfer offer' }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Back to your servers' }).click();
  // Back on the dashboard, which sends a user without servers on to /no-servers.
  await expect(page).toHaveURL(/\/no-servers$/);
});

test('an offer is shown to its recipient only, accepted once, and voids the other offer', async ({
  page,
  api,
  request,
  browser,
}) => {
  const owner = await api.account({ user_name: 'Owner Olga' });
  const [buyer, second, stranger] = [await api.account(), await api.account(), await api.account()];
  await serverOffered(request, owner, 'shop-db', [buyer, second]);
  const linkTo = async (who: Account) => {
    const mail = await api.lastMail(who.email);
    expect(mail.subject).toBe('A server is offered to you on Stackdeck');
    const id = /\/dashboard\/([0-9a-f-]{36})/.exec(mail.text)?.[1];
    expect(id, mail.text).toBeTruthy();
    return `/dashboard/${id}`;
  };
  const toBuyer = await linkTo(buyer);
  const toSecond = await linkTo(second);

  // Someone else opening the buyer's link sees no offer at all.
  await openSignedIn(page, stranger.email, stranger.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  await page.goto(toBuyer);
  await expect(page.getByRole('heading', { name: 'No such transfer offer' })).toBeVisible();

  // The buyer sees what is offered, by whom and until when, then accepts.
  const theirs = await browserOf(browser, buyer);
  await theirs.page.goto(toBuyer);
  const offer = theirs.page.getByRole('region', { name: 'A server is offered to you' });
  await expect(offer).toContainText('shop-db');
  await expect(offer).toContainText(`Owner Olga (${owner.email})`);
  await expect(offer).toContainText('Open until');
  await theirs.page.screenshot({ path: `${SHOTS}/transfer-offer.png`, fullPage: true });
  await offer.getByRole('button', { name: 'Accept the server' }).click();
  await expect(theirs.page).toHaveURL(/\/dashboard$/);
  await expect(theirs.page.getByRole('article', { name: 'shop-db' })).toBeVisible();

  // The link again: done, nothing to accept.
  await theirs.page.goto(toBuyer);
  const done = theirs.page.getByTestId('transfer-gone');
  await expect(done.getByRole('heading', { name: 'This transfer is done' })).toBeVisible();
  await expect(done).toContainText('This transfer was accepted already');
  await expect(theirs.page.getByRole('button', { name: 'Accept the server' })).toHaveCount(0);
  await theirs.context.close();

  // The other recipient's offer became void when the buyer accepted.
  const late = await browserOf(browser, second);
  await late.page.goto(toSecond);
  const gone = late.page.getByTestId('transfer-gone');
  await expect(gone.getByRole('heading', { name: 'This offer is no longer open' })).toBeVisible();
  await expect(gone).toContainText('no longer valid');
  await expect(late.page.getByRole('button', { name: 'Accept the server' })).toHaveCount(0);
  await late.page.screenshot({ path: `${SHOTS}/transfer-void.png`, fullPage: true });
  await gone.getByRole('link', { name: 'Back to your servers' }).click();
  await expect(late.page).toHaveURL(/\/no-servers$/);
  await late.context.close();
});
