import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { request as requestContext } from '@playwright/test';
import { MAILBOX_SMTP_PORT } from '../../playwright.config';
import { Api, E2E_ADMIN, expect, test } from './fixtures';

/**
 * Session expiry (spec section 8): a token that really expired. This file starts its own
 * panel on a test clock (server/testClock.ts, STACKDECK_TEST_CLOCK): the test moves that
 * panel's time past the token's lifetime, so the server itself answers 401 'token expired',
 * however slow the machine; no other spec's sessions are touched.
 */

const TTL_SECONDS = 3600;
const SERVER_DIR = process.env.E2E_SERVER_DIR ?? 'dist/server';
const WEB_DIR = process.env.E2E_WEB_DIR ?? 'dist/web';
const SHOTS = '.tmp/shots-shell';

let server: ChildProcess | undefined;
let base = '';
let clockFile = '';

/** Moves the panel's clock this far ahead of the real time. */
function movePanelClock(ms: number) {
  fs.writeFileSync(clockFile, String(ms));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = `.tmp/e2e-data-expiry-${port}`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  clockFile = `${dataDir}/test-clock`;
  server = spawn(process.execPath, [`${SERVER_DIR}/main.mjs`], {
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR,
      PUBLIC_URL: base,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      AUTH_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      TOKEN_TTL_SECONDS: String(TTL_SECONDS),
      STACKDECK_TEST_CLOCK: clockFile,
      // Mail goes to the run's mailbox, where Api.account reads the confirmation code.
      SMTP_URL: `smtp://127.0.0.1:${MAILBOX_SMTP_PORT}`,
    },
  });
  // As long as playwright.config.ts gives the run's own panel: a loaded machine starts it slowly.
  await expect
    .poll(
      () =>
        fetch(`${base}/healthz`)
          .then((res) => res.ok)
          .catch(() => false),
      { message: 'the test-clock panel starts', timeout: 120_000 },
    )
    .toBe(true);
});

test.afterAll(() => {
  server?.kill();
});

test('an expired session logs out to /login with the message, which then clears itself', async ({
  page,
}) => {
  const request = await requestContext.newContext({ baseURL: base });
  const account = await new Api(request).account({ user_name: 'Short Session' });

  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await expect(page.getByTestId('account-name')).toHaveText('Short Session');

  movePanelClock((TTL_SECONDS + 60) * 1000);
  await page.goto(`${base}/my-profile`);

  const notice = page.getByText('Session expired! Please, login again', { exact: true });
  await expect(page).toHaveURL(`${base}/login`);
  await expect(notice).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/session-expired.png` });
  expect(await page.evaluate(() => localStorage.getItem('stackdeck.token'))).toBeNull();

  // It clears itself, after its 4000 ms (the figure: tests/unit/shell-notices.test.ts).
  await expect(notice).toBeHidden();
  await request.dispose();
});
