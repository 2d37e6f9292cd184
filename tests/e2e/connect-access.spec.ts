import type { APIRequestContext, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { expect, test, openSignedIn } from './fixtures';

/** The panel's SQLite file of this run (playwright.config.ts: DATA_DIR per port). */
const DB_FILE = `.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}/stackdeck.db`;

/** Puts an account on a plan, as a paid subscription would (features/billing). */
function onPlan(userId: number, planId: number) {
  const db = new Database(DB_FILE);
  try {
    db.prepare('update users set plan_id = ? where id = ?').run(planId, userId);
  } finally {
    db.close();
  }
}

/** Server pages of the connect flow without a real server: pending servers, access, transfer. */

interface Created {
  id: number;
  name: string;
  uuid: string;
}

async function tokenOf(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/v1/users/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { Token: string }).Token;
}

/** `POST servers/users/{uid}?action=create` as the user, as the connect page does. */
async function createServer(
  request: APIRequestContext,
  token: string,
  uid: number,
  body: Record<string, string> = {},
): Promise<Created> {
  const res = await request.post(`/api/v1/servers/users/${uid}?action=create`, {
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as Created;
}

async function expectNotFound(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/404$/);
}

test('a pending server: connect-server form, install page, dashboard card, removal', async ({
  page,
  api,
}) => {
  const owner = await api.account();
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/no-servers$/);

  await page.goto('/connect-server');
  await expect(page.getByRole('heading', { name: 'Connect a server' })).toBeVisible();
  await page.getByLabel('Server name').fill('db-2');
  await page.getByLabel('IP address (optional)').fill('203.0.113.20');
  await page.getByRole('button', { name: 'Create and show the install command' }).click();
  await expect(page).toHaveURL(/\/server-install\/\d+$/);
  const id = Number(/(\d+)$/.exec(page.url())?.[1]);
  await expect(page.getByTestId('install-command')).toContainText('/install/');
  await expect(page.getByRole('list', { name: 'Install steps' })).toContainText(
    'Waiting for the install command',
  );

  // The chosen name shows while the server keeps its cs- name, which shows under it.
  await expect(page.getByRole('heading', { name: 'Install db-2' })).toBeVisible();
  const csName = (await page.getByTestId('server-id').textContent())!;
  expect(csName).toMatch(/^cs-[0-9a-f]+$/);

  // /connect-server/{id}: a pending server is renamed and described, then its install goes on.
  await page.goto(`/connect-server/${id}`);
  const pendingCard = page.getByRole('article', { name: 'db-2' });
  await expect(pendingCard).toContainText('Pending install');
  await expect(pendingCard.getByTestId('server-id')).toHaveText(csName);
  await expect(page.getByLabel('Server name')).toHaveValue('db-2');
  await expect(page.getByLabel('IP address (optional)')).toHaveValue('203.0.113.20');
  await page.getByLabel('IP address (optional)').fill('203.0.113.300');
  const save = page.getByRole('button', { name: 'Save and continue to the install' });
  await save.click();
  await expect(page.getByText('An IPv4 address like 203.0.113.10')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/connect-server/${id}$`));
  await page.getByLabel('IP address (optional)').fill('203.0.113.21');
  await page.getByLabel('Server name').fill('db-3');
  await page.getByLabel('Provider (optional)').fill('Hetzner');
  await save.click();
  await expect(page).toHaveURL(new RegExp(`/server-install/${id}$`));
  await expect(page.getByRole('heading', { name: 'Install db-3' })).toBeVisible();
  await expect(page.getByText('Pending install')).toBeVisible();
  // Still the same pending install: the same command, the same cs- name.
  await expect(page.getByTestId('install-command')).toContainText('/install/');
  await expect(page.getByTestId('server-id')).toHaveText(csName);

  await page.goto('/dashboard');
  const card = page.getByRole('article', { name: 'db-3' });
  await expect(card.getByRole('heading')).toHaveText('db-3');
  await expect(card.getByTestId('server-id')).toHaveText(csName);
  await expect(card).toContainText('Pending install');
  await expect(card).toContainText('203.0.113.21');
  await expect(card).toContainText('Hetzner');
  await expect(card.getByRole('link', { name: 'Finish install' })).toHaveAttribute(
    'href',
    `/server-install/${id}`,
  );

  // Removal is confirmed by the name the user sees, not by the cs- name.
  await card.getByRole('button', { name: 'Actions for db-3' }).click();
  await page.getByRole('menuitem', { name: 'Remove server' }).click();
  await expect(page).toHaveURL(new RegExp(`/remove-server/${id}$`));
  await expect(page.getByRole('heading', { name: 'Remove db-3' })).toBeVisible();
  await expect(page.getByText(/The agent was never installed/)).toBeVisible();
  const remove = page.getByRole('button', { name: 'Remove server' });
  const confirm = page.getByLabel("Type the server's name to confirm");
  await expect(remove).toBeDisabled();
  await confirm.fill(csName);
  await expect(remove).toBeDisabled();
  await confirm.fill('db-2');
  await expect(remove).toBeDisabled();
  await confirm.fill('db-3');
  await remove.click();
  await expect(page).toHaveURL(/\/no-servers$/);
});

test("the panel's code-10 event ends the install at 100 %, shown once", async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account();
  const server = await createServer(
    request,
    await tokenOf(request, owner.email, owner.password),
    owner.id,
    { name: 'done-1' },
  );
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/server-install/${server.id}`);
  const command = (await page.getByTestId('install-command').textContent())!;
  const key = /\/install\/([A-Za-z0-9_-]+) /.exec(command)![1];
  const post = async (event: string, code: number) =>
    expect((await request.post(`/install/${key}/events`, { data: { event, code } })).status()).toBe(
      204,
    );
  const steps = page.getByRole('list', { name: 'Install steps' });
  const bar = page.getByRole('progressbar', { name: 'Install progress' });

  await post('Agent started; waiting for it to connect', 9);
  await expect(bar).toHaveAttribute('aria-valuenow', '90');
  await expect(steps.getByRole('progressbar', { name: 'In progress' })).toHaveCount(1);
  // The event the panel adds when the agent first connects (here without an agent).
  await post('The agent is connected', 10);
  await expect(steps).toContainText('code 10');
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await expect(steps.getByRole('progressbar', { name: 'In progress' })).toHaveCount(0);
  await expect(steps.getByText('The agent is connected')).toHaveCount(1);
  await expect(steps).not.toContainText('The agent connected to the panel');
});

test('install progress follows the events the install script posts; a failure says so', async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account();
  const server = await createServer(
    request,
    await tokenOf(request, owner.email, owner.password),
    owner.id,
  );
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/server-install/${server.id}`);
  const command = (await page.getByTestId('install-command').textContent())!;
  const key = /\/install\/([A-Za-z0-9_-]+) /.exec(command)![1];
  // What the install script sends as it goes (scripts' `event TEXT CODE`).
  const post = async (event: string, code: number) =>
    expect((await request.post(`/install/${key}/events`, { data: { event, code } })).status()).toBe(
      204,
    );
  const steps = page.getByRole('list', { name: 'Install steps' });
  const bar = page.getByRole('progressbar', { name: 'Install progress' });
  await expect(steps).toContainText('Waiting for the install command');

  await post('Installer started on web-9', 1);
  await expect(steps).toContainText('Installer started on web-9');
  await expect(bar).toHaveAttribute('aria-valuenow', '10');
  await post('Downloading the agent', 4);
  await expect(steps).toContainText('code 4');
  await expect(bar).toHaveAttribute('aria-valuenow', '40');
  await expect(steps.getByRole('progressbar', { name: 'In progress' })).toHaveCount(1);

  await post('The installer stopped at line 42', -1);
  const failure = page.getByRole('alert').filter({ hasText: 'The install failed' });
  await expect(failure).toContainText('The installer stopped at line 42');
  await expect(bar).toHaveAttribute('aria-valuenow', '40');
  await page.screenshot({ path: '.tmp/shots-connect/install-failed.png', fullPage: true });

  // Start over: the old steps go, the same command stays valid.
  await failure.getByRole('button', { name: 'Start over' }).click();
  await expect(failure).toHaveCount(0);
  await expect(steps).not.toContainText('Installer started on web-9');
  await expect(steps).toContainText('Waiting for the install command');
  await expect(page.getByTestId('install-command')).toHaveText(command);
});

test("another user cannot open a server's connect, install or remove page", async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account();
  const server = await createServer(
    request,
    await tokenOf(request, owner.email, owner.password),
    owner.id,
    { name: 'private-1' },
  );
  const stranger = await api.account();
  await openSignedIn(page, stranger.email, stranger.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  await expectNotFound(page, `/server-install/${server.id}`);
  await expectNotFound(page, `/remove-server/${server.id}`);
  await expectNotFound(page, `/connect-server/${server.id}`);
  await expectNotFound(page, '/server-install/not-a-number');
  // And nothing of it reached the stranger's dashboard.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/no-servers$/);
});

test('many servers page; a server is transferred by email and accepted', async ({
  page,
  api,
  request,
  browser,
}) => {
  const owner = await api.account();
  // Thirteen servers: more than a new account's Trial allows (features/plans).
  onPlan(owner.id, 4);
  const token = await tokenOf(request, owner.email, owner.password);
  for (let n = 1; n <= 13; n++) await createServer(request, token, owner.id, { name: `s-${n}` });
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('article')).toHaveCount(12);
  await page
    .getByRole('navigation', { name: 'Server pages' })
    .getByRole('button', { name: 'Go to page 2' })
    .click();
  await expect(page.getByRole('article')).toHaveCount(1);
  const card = page.getByRole('article').first();
  const name = (await card.getByRole('heading').textContent())!;

  const recipient = await api.account();
  await card.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Transfer to another user' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email of the new owner').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Offer transfer' }).click();
  await expect(dialog.getByText('Enter a valid email address')).toBeVisible();
  await dialog.getByLabel('Email of the new owner').fill(recipient.email);
  await dialog.getByRole('button', { name: 'Offer transfer' }).click();
  await expect(page.getByText(`Transfer offered to ${recipient.email}`)).toBeVisible();

  const mail = await api.lastMail(recipient.email);
  const link = /https?:\/\/\S+\/dashboard\/([0-9a-f-]{36})/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();

  // The recipient, in a browser of their own.
  const theirs = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const their = await theirs.newPage();
  await openSignedIn(their, recipient.email, recipient.password);
  await expect(their).toHaveURL(/\/no-servers$/);
  await their.goto(`/dashboard/${link![1]}`);
  await their.getByRole('button', { name: 'Accept the server' }).click();
  await expect(their).toHaveURL(/\/dashboard$/);
  await expect(their.getByRole('article', { name, exact: true })).toContainText('Pending install');

  // The same link again says the transfer is done, with nothing left to accept.
  await their.goto(`/dashboard/${link![1]}`);
  await expect(their.getByText('This transfer was accepted already')).toBeVisible();
  await expect(their.getByRole('button', { name: 'Accept the server' })).toHaveCount(0);
  await theirs.close();

  // It left the owner's account. Its name exactly: "s-1" is also part of "s-10" to "s-13".
  await page.reload();
  await expect(page.getByRole('article')).toHaveCount(12);
  await expect(page.getByRole('article', { name, exact: true })).toHaveCount(0);
});
