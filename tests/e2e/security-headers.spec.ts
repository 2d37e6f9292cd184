import type { Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { AGENT_NAMESPACE, EVENTS, type Report } from '../../resources/agent/protocol';
import { E2E_ADMIN, expect, test, openSignedIn } from './fixtures';

/**
 * The panel's Content-Security-Policy (server/plugins/securityHeaders.ts) lets every kind of
 * page work: the sign-in page, a user's dashboard, the Connect page, a server's statistics
 * (recharts' SVG, fed by the live socket), the admin dashboard and the API viewer. Any CSP
 * violation Chromium reports fails the test.
 */
const PANEL = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;
const SHOTS = '.tmp/shots-security';

test.describe.configure({ timeout: 120_000 });

/** Collects CSP violations on every document the page loads: DOM events and console reports. */
async function watchCsp(page: Page): Promise<() => string[]> {
  const seen: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (load|execute|apply|connect|create|frame)/i.test(text))
      seen.push(`console: ${text}`);
  });
  await page.exposeFunction('__reportCsp', (line: string) => seen.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCsp: (line: string) => void }).__reportCsp;
      report(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  return () => [...seen];
}

/** Opens a page and checks that it carries the policy. */
async function open(page: Page, path: string) {
  const res = await page.goto(path);
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(res?.headers()['x-frame-options']).toBe('DENY');
}

/** A stand-in agent: reports like the real one and answers every op with an error. */
function fakeAgent(key: string): Promise<Socket> {
  const socket = io(`${PANEL}${AGENT_NAMESPACE}`, {
    auth: { key, agent_version: 'e2e' },
    transports: ['websocket'],
    reconnection: false,
  });
  socket.on(EVENTS.op, (_req: unknown, ack?: (reply: unknown) => void) =>
    ack?.({ ok: false, error: 'a stand-in agent' }),
  );
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const report = (at: number, usage: number): Report => ({
  agent_version: 'e2e',
  kernel_version: '6.1.0-e2e',
  os: 'Debian GNU/Linux 12 (bookworm)',
  hostname: 'csp-web.example.com',
  timezone: 'UTC',
  uptime: 1000,
  load: [0.5, 0.4, 0.3],
  cpu: { cores: 2, usage },
  memory: { total: 4e9, used: 1e9 + usage * 1e7, swap_total: 0, swap_used: 0 },
  disk: { total: 50e9, used: 10e9 },
  network: { rx_bytes: 1000, tx_bytes: 2000, rx_rate: 10 * usage, tx_rate: 20 },
  at,
});

test('every kind of page works under the CSP, with no violation', async ({ page, api }) => {
  const violations = await watchCsp(page);

  await open(page, '/login');
  await expect(page.getByRole('button', { name: /sign in/i })).toBeVisible();

  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);

  // The Connect page of a new server, then the server connected: dashboard and statistics.
  const { token, id: uid } = await api.login(account.email, account.password);
  const auth = { authorization: `Bearer ${token}` };
  const created = await page.request.post(`/api/v1/servers/users/${uid}?action=create`, {
    headers: auth,
    data: { name: 'csp-web' },
  });
  const sid = ((await created.json()) as { id: number }).id;
  const script = await page.request.post(`/api/v1/servers/users/${uid}?action=script&sid=${sid}`, {
    headers: auth,
  });
  const installKey = /\/install\/([\w-]+)/.exec(
    ((await script.json()) as { command: string }).command,
  )![1]!;
  await open(page, `/server-install/${sid}`);
  await expect(page.getByTestId('install-command')).toContainText('/install/');

  const credentials = await page.request.post(`/install/${installKey}/credentials`);
  const agent = await fakeAgent(((await credentials.json()) as { key: string }).key);
  try {
    const now = Date.now();
    for (const [i, usage] of [12, 40, 25, 60].entries())
      agent.emit(EVENTS.report, report(now - (3 - i) * 60_000, usage));
    // The panel writes minute samples every 10 s: the charts have data once they are written.
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/v1/stats/servers/${sid}/users/${uid}`, {
            headers: auth,
          });
          return ((await res.json()) as { data: unknown[] }).data.length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);

    await open(page, '/dashboard');
    await expect(page.getByRole('article', { name: 'csp-web' })).toBeVisible();

    await open(page, `/server-stats/${sid}`);
    await expect(page.locator('main h1')).toBeVisible();
    // recharts draws its SVG.
    await expect(page.locator('.recharts-surface').first()).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/server-stats.png`, fullPage: true });
  } finally {
    agent.disconnect();
  }

  // The admin area.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('region', { name: 'Users', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-dashboard.png`, fullPage: true });

  expect(violations()).toEqual([]);
});

/**
 * The API viewer (swagger-ui) renders the document under the CSP. Its headers and the document
 * itself are checked at the API layer (tests/api/security-headers.test.ts, openapi.test.ts);
 * here only that a person sees it, with the time swagger-ui's 1.7 MB script and the whole
 * document take to parse on a slow machine.
 */
test('the API viewer renders under the CSP, with no violation', async ({ page }) => {
  const violations = await watchCsp(page);
  await open(page, '/api/docs');
  await expect(page.getByRole('heading', { name: /Stackdeck API/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.locator('.opblock').first()).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/api-docs.png` });
  expect(violations()).toEqual([]);
});

test('a page of the panel cannot be framed', async ({ page }) => {
  const violations = await watchCsp(page);
  // A page of another origin framing the panel: the browser refuses to render it.
  await page.route('http://framer.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<iframe id="panel" src="${PANEL}/login" width="600" height="400"></iframe>`,
    }),
  );
  // goto waits for the load event, which waits for the frame's own (refused) load.
  await page.goto('http://framer.test/');
  const framed = page.frames().find((f) => f.url().startsWith(PANEL));
  const hasForm = framed
    ? await framed
        .locator('form')
        .count()
        .catch(() => 0)
    : 0;
  expect(hasForm).toBe(0);
  // This one is the refusal working, not a fault of the panel's own pages.
  expect(violations().join('\n')).not.toContain('script-src');
});
