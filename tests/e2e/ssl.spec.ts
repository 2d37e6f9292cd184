import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { type Leaf, type TestPki, makePki } from '../api/sslFixtures';
import { expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The SSL pages of a web app against a real server: an uploaded certificate (a test CA made
 * with openssl) refused at its field, then installed; nginx in the sandbox serves it, force
 * HTTPS redirects, delete goes back to plain HTTP. Checked in the page and with `curl` inside.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({
  serverName: 'e2e-ssl',
  services: ['ssh', 'nginx', 'php8.2-fpm'],
});
let sb: SandboxServer;
let pki: TestPki;
let leaf: Leaf;
let appId = 0;

const SHOTS = '.tmp/shots-ssl';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function curl(args: string[]) {
  const res = await sb.sandbox.exec(
    ['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '10', ...args],
    { timeoutMs: 15_000 },
  );
  return res.stdout.trim();
}
const https = () =>
  curl([
    '--cacert',
    '/root/test-ca.pem',
    '--resolve',
    'shop.test:443:127.0.0.1',
    'https://shop.test/',
  ]);
const http = () => curl(['-H', 'Host: shop.test', 'http://127.0.0.1/']);

test.afterAll(() => pki?.close());

test('no certificate: the page says so and leads to the install page', async ({
  page,
  request,
}) => {
  sb = await server.ready();
  pki = await makePki();
  leaf = await pki.leaf(['shop.test', 'www.shop.test']);
  await sb.sandbox.execOk(['tee', '/root/test-ca.pem'], { input: pki.ca });
  const auth = { authorization: `Bearer ${sb.token}` };
  const user = await request.fetch(
    `${PANEL}/api/v1/sysusers/servers/${sb.serverId}/users/${sb.account.id}`,
    {
      method: 'POST',
      headers: auth,
      data: { user_name: 'alice', password: 'a long system password 1' },
    },
  );
  expect(user.status(), await user.text()).toBe(201);
  const created = await request.fetch(
    `${PANEL}/api/v1/webstacks/servers/${sb.serverId}/users/${sb.account.id}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.token}` },
      data: { name: 'shop', domains: ['shop.test', 'www.shop.test'], sys_user: 'alice' },
    },
  );
  expect(created.status(), await created.text()).toBe(201);
  appId = ((await created.json()) as { id: number }).id;

  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/ssl-certificates/${sb.serverId}/${appId}`);
  await expect(page.getByRole('heading', { name: 'No certificate yet' })).toBeVisible();
  await shot(page, 'ssl-empty');
  await page.getByRole('status').getByRole('link', { name: 'Install SSL' }).click();
  await expect(page).toHaveURL(new RegExp(`/install-ssl/${sb.serverId}/${appId}$`));
  await expect(page.getByRole('tab', { name: "Let's Encrypt" })).toBeVisible();
  await shot(page, 'ssl-install-letsencrypt');
});

test('an upload with the wrong key is refused at its field; the right one is served', async ({
  page,
}) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/install-ssl/${sb.serverId}/${appId}`);
  await page.getByRole('tab', { name: 'Upload your own' }).click();
  await page.getByLabel('Certificate (PEM)').fill(leaf.certificate);
  await page.getByLabel('Private key (PEM)').fill(pki.strayKey);
  await page.getByLabel('Chain (PEM, optional)').fill(pki.intermediate);
  await page.getByRole('button', { name: 'Install certificate' }).click();
  await expect(page.getByText('This key does not belong to the certificate')).toBeVisible();
  await shot(page, 'ssl-upload-refused');
  expect(await https()).not.toBe('200');

  await page.getByLabel('Private key (PEM)').fill(leaf.key);
  await page.getByRole('button', { name: 'Install certificate' }).click();
  await expect(page).toHaveURL(new RegExp(`/ssl-certificates/${sb.serverId}/${appId}$`));
  await expect(page.getByText('shop.test, www.shop.test')).toBeVisible();
  await expect(page.getByText('CN=Stackdeck Test Intermediate')).toBeVisible();
  await shot(page, 'ssl-installed');
  expect(await https()).toBe('200');
  expect(await http()).toBe('200');
});

test('force HTTPS redirects plain HTTP; delete goes back to it', async ({ page }) => {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/ssl-certificates/${sb.serverId}/${appId}`);
  await page.getByLabel('Force HTTPS').click();
  await expect(page.getByText('Plain HTTP now redirects to HTTPS.')).toBeVisible();
  expect(await http()).toBe('301');
  expect(await https()).toBe('200');

  await page.getByRole('button', { name: 'Delete the certificate of shop' }).click();
  await expect(page.getByRole('dialog')).toContainText('served over plain HTTP again');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'No certificate yet' })).toBeVisible();
  expect(await http()).toBe('200');
  expect(await https()).not.toBe('200');
});
