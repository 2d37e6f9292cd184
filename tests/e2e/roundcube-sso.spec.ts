import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { serveRoundcube } from '../system/harness/releaseArchives';
import { E2E_ADMIN, expect, openSignedIn, test } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * Opening a mailbox in Roundcube from its app's page, against a real server: Roundcube installed
 * by the panel, mail enabled and a mailbox made through the API. The browser cannot resolve the
 * app's domain, so its requests to it are carried into the sandbox by curl (documents only:
 * Roundcube's page shows who is signed in without its scripts). What a person sees: the app's
 * mailboxes, **Open in Roundcube**, and a new tab of Roundcube signed in as that mailbox. What
 * went over the wire: the token in a form post, never in an address.
 */
test.describe.configure({
  mode: 'serial',
  timeout: 300_000,
  // installers.spec.ts pins Roundcube's default release too, from its own sandbox.
  lock: 'default-roundcube-release',
});

const server = useSandboxServer({
  serverName: 'e2e-roundcube-sso',
  services: ['ssh', 'nginx', 'php8.2-fpm', 'mariadb', 'postfix', 'dovecot'],
});
let sb: SandboxServer;
let appId = 0;

const HOST = 'mail.test';
const ADDRESS = `info@${HOST}`;

const SHOTS = '.tmp/shots-roundcube-sso';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function pin(request: APIRequestContext, release: { url: string; sha256: string }) {
  const login = await request.post('/api/v1/users/login', { data: E2E_ADMIN });
  const token = ((await login.json()) as { Token: string }).Token;
  const res = await request.post('/api/v1/admin/app-releases', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      app: 'roundcube',
      version: `e2e-sso-${Date.now() % 1_000_000}`,
      url: release.url,
      sha256: release.sha256,
      format: 'tar.gz',
      is_default: true,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function setUp(request: APIRequestContext) {
  const at = (path: string, query = '') =>
    `/api/v1/${path}/servers/${sb.serverId}/users/${sb.account.id}${query}`;
  const post = (path: string, data: unknown, query = '') =>
    request.post(at(path, query), { headers: { authorization: `Bearer ${sb.token}` }, data });
  const user = await post('sysusers', {
    user_name: 'mailweb',
    password: 'a long system password 1',
  });
  expect(user.status(), await user.text()).toBe(201);
  await pin(request, await serveRoundcube(sb.sandbox, 18776));
  const install = await post('roundcube', {
    name: 'webmail',
    domains: [HOST],
    sys_user: 'mailweb',
  });
  expect(install.status(), await install.text()).toBe(202);
  const answer = (await install.json()) as { task_id: number; webapp_id: number };
  appId = answer.webapp_id;
  await expect
    .poll(
      async () => {
        const res = await request.get(
          `/api/v1/clone-events/users/${sb.account.id}?id=${answer.task_id}`,
          {
            headers: { authorization: `Bearer ${sb.token}` },
          },
        );
        return ((await res.json()) as { data: { status: string }[] }).data[0]?.status;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe('completed');
  const mail = await post('mail', {});
  expect(mail.status(), await mail.text()).toBe(200);
  const box = await post(
    'mail-user',
    { local: 'info', domain: HOST, password: 'a long mail password' },
    `?wsid=${appId}`,
  );
  expect(box.status(), await box.text()).toBe(201);
}

/** The app's domain, served by the sandbox's nginx through curl (one cookie jar: one browser). */
async function throughSandbox(route: Route) {
  const req = route.request();
  if (req.resourceType() !== 'document') return route.fulfill({ status: 204, body: '' });
  const argv = ['curl', '-s', '-D', '-', '-c', '/tmp/e2e-jar', '-b', '/tmp/e2e-jar'];
  argv.push('--resolve', `${HOST}:80:127.0.0.1`, '-X', req.method());
  const body = req.postData();
  if (body !== null)
    argv.push('-H', `content-type: ${req.headers()['content-type'] ?? ''}`, '--data-binary', body);
  const res = await sb.sandbox.execOk([...argv, req.url()], { timeoutMs: 60_000 });
  const split = res.stdout.indexOf('\r\n\r\n');
  const head = res.stdout.slice(0, split);
  const location = /^location: (.*)$/im.exec(head)?.[1]?.trim();
  return route.fulfill({
    status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]),
    headers: {
      'content-type': /^content-type: (.*)$/im.exec(head)?.[1]?.trim() ?? 'text/html',
      ...(location ? { location } : {}),
    },
    body: res.stdout.slice(split + 4),
  });
}

test('opens a mailbox in Roundcube, signed in, from the app’s page', async ({ page, request }) => {
  sb = await server.ready();
  await setUp(request);
  const seen: { method: string; url: string; body: string | null }[] = [];
  await page.context().route(`http://${HOST}/**`, (route) => {
    const req = route.request();
    if (req.resourceType() === 'document')
      seen.push({ method: req.method(), url: req.url(), body: req.postData() });
    return throughSandbox(route);
  });

  await openSignedIn(
    page,
    sb.account.email,
    sb.account.password,
    `/roundcube/${sb.serverId}/${appId}`,
  );
  await expect(page.getByRole('heading', { name: 'Roundcube' })).toBeVisible();
  const mailboxes = page.getByRole('table', { name: 'Mailboxes' });
  await expect(mailboxes.getByText(ADDRESS)).toBeVisible();
  await shot(page, 'roundcube-page');

  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: `Open ${ADDRESS} in Roundcube` }).click(),
  ]);
  await expect(tab.locator('.username')).toHaveText(ADDRESS, { timeout: 60_000 });
  await expect(tab).toHaveURL(/^http:\/\/mail\.test\/\?_task=mail/);
  // The new tab cannot reach back into the panel.
  expect(await tab.evaluate(() => window.opener)).toBeNull();

  // The token went in the body of one form post; no address asked for held it.
  const posts = seen.filter((r) => r.method === 'POST');
  expect(posts).toHaveLength(1);
  expect(posts[0]!.url).toBe(`http://${HOST}/`);
  const token = new URLSearchParams(posts[0]!.body ?? '').get('_sso') ?? '';
  expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  for (const r of seen) expect(r.url).not.toContain(token.slice(0, 20));
});
