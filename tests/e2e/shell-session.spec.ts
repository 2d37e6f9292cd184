import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { request as requestContext } from '@playwright/test';
import { MAILBOX_SMTP_PORT } from '../../playwright.config';
import { Api, E2E_ADMIN, expect, test } from './fixtures';

/**
 * Session expiry (spec section 8): a token that really expired. This file starts its own
 * panel with a 6-second token lifetime, so the server itself answers 401 'token expired'.
 */

const TTL_SECONDS = 6;
const SERVER_DIR = process.env.E2E_SERVER_DIR ?? 'dist/server';
const WEB_DIR = process.env.E2E_WEB_DIR ?? 'dist/web';
const SHOTS = '.tmp/shots-shell';

let server: ChildProcess | undefined;
let base = '';

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
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = `.tmp/e2e-data-expiry-${port}`;
  fs.rmSync(dataDir, { recursive: true, force: true });
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
      // Mail goes to the run's mailbox, where Api.account reads the confirmation code.
      SMTP_URL: `smtp://127.0.0.1:${MAILBOX_SMTP_PORT}`,
    },
  });
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const up = await fetch(`${base}/healthz`)
      .then((res) => res.ok)
      .catch(() => false);
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the short-token panel did not start');
});

test.afterAll(() => {
  server?.kill();
});

test('an expired session logs out to /login with the message for 4 seconds', async ({ page }) => {
  const request = await requestContext.newContext({ baseURL: base });
  const account = await new Api(request).account({ user_name: 'Short Session' });

  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  const loginAnswer = page.waitForResponse((response) =>
    response.url().endsWith('/api/v1/users/login'),
  );
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The token's clock starts when the server answers, however slow the machine is.
  await loginAnswer;
  const signedInAt = Date.now();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await expect(page.getByTestId('account-name')).toHaveText('Short Session');

  await page.waitForTimeout(Math.max(0, signedInAt + (TTL_SECONDS + 1) * 1000 - Date.now()));
  // Still signed in until now: the expiry below is the one this test provokes.
  await expect(page.getByTestId('account-name')).toHaveText('Short Session');
  await page.goto(`${base}/my-profile`);

  const notice = page.getByText('Session expired! Please, login again', { exact: true });
  await expect(page).toHaveURL(`${base}/login`);
  await expect(notice).toBeVisible();
  const shownAt = Date.now();
  await page.screenshot({ path: `${SHOTS}/session-expired.png` });
  expect(await page.evaluate(() => localStorage.getItem('stackdeck.token'))).toBeNull();

  // Shown for 4000 ms: still there after 3 s, gone soon after 4 s.
  await page.waitForTimeout(Math.max(0, shownAt + 3000 - Date.now()));
  await expect(notice).toBeVisible();
  await expect(notice).toBeHidden({ timeout: 3000 });
  await request.dispose();
});
