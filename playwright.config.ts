import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * UI tests in Debian's Chromium (no browser download) against the built panel on a fresh data
 * dir. `npm run build` must have run; scripts/test.sh does it.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
// Separate builds and data per run, so two runs on one machine do not meet.
const SERVER_DIR = process.env.E2E_SERVER_DIR ?? 'dist/server';
const WEB_DIR = process.env.E2E_WEB_DIR ?? 'dist/web';
const DATA_DIR = `.tmp/e2e-data-${PORT}`;
// The address the panel gives its first admin when ADMIN_EMAIL is unset: the UI must take it.
export const E2E_ADMIN = { email: 'admin@localhost', password: 'e2e admin password' };
/** tests/e2e/mailbox.ts: the SMTP server the panel delivers to, and where tests read the mail. */
export const MAILBOX_HTTP_PORT = PORT + 10_000;
export const MAILBOX_SMTP_PORT = PORT + 20_000;

const TEST_DIR = path.join(import.meta.dirname, 'tests/e2e');
/**
 * The specs that boot sandbox servers, the longest by far: queued first (their project comes
 * first), so that the short specs fill both workers at the end instead of one worker finishing
 * a long spec while the other waits.
 */
const SANDBOX_SPECS = readdirSync(TEST_DIR)
  .filter((file) => file.endsWith('.spec.ts'))
  .filter((file) =>
    /\b(useSandboxServer|startSandbox)\(/.test(readFileSync(path.join(TEST_DIR, file), 'utf8')),
  )
  .map((file) => path.join(TEST_DIR, file));

export default defineConfig({
  testDir: 'tests/e2e',
  projects: [
    { name: 'servers', testMatch: SANDBOX_SPECS },
    { name: 'pages', testIgnore: SANDBOX_SPECS },
  ],
  // 120 s: CI machines run this suite while loaded (a page load took over 5 s there); specs that
  // boot sandbox servers set their own, longer time-outs.
  timeout: 120_000,
  // 15 s: a page's lazy part can take over 10 s to arrive and run on a busy two-CPU machine.
  expect: { timeout: 15_000 },
  // Two workers share the one panel (the machine has 2 CPUs); each spec file runs in order on
  // one of them. Every spec makes its own accounts, servers and sandboxes; the few that change
  // what the others see take a lock (`-exclusive-`: nothing else runs meanwhile, or a named
  // one): admin-dashboard (the panel-wide counts), app-releases (the catalogue's empty state and
  // its mirror), wordpress and wpmanager (both pin the default WordPress release).
  fullyParallel: false,
  workers: 2,
  // One retry: a test that fails twice is red; one that passes on its second try is reported as
  // flaky in the output, so slowness of a loaded machine shows without failing the run.
  retries: 1,
  reporter: [['list']],
  outputDir: `.tmp/e2e-results-${PORT}`,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // The mailbox the panel delivers to: the outbox masks codes and links (issue 8).
      command: 'node_modules/.bin/tsx tests/e2e/mailbox.ts',
      url: `http://127.0.0.1:${MAILBOX_HTTP_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        MAILBOX_HTTP_PORT: String(MAILBOX_HTTP_PORT),
        MAILBOX_SMTP_PORT: String(MAILBOX_SMTP_PORT),
      },
    },
    {
      command: `rm -rf ${DATA_DIR} && node --enable-source-maps ${SERVER_DIR}/main.mjs`,
      url: `http://127.0.0.1:${PORT}/healthz`,
      reuseExistingServer: false,
      // 120 s: CI machines run this suite while loaded (a page load took over 5 s there); specs that
      // boot sandbox servers set their own, longer time-outs.
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        WEB_DIR,
        PUBLIC_URL: `http://127.0.0.1:${PORT}`,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        // Many sign-ins from one address in one minute; the limit itself is tested in the API suite.
        AUTH_RATE_LIMIT: '1000',
        LOG_LEVEL: 'warn',
        // The DNS flow's pdns_server listens on loopback.
        OUTBOUND_ALLOW: '127.0.0.1',
        // tests/e2e/dns-cloudflare.spec.ts starts the fake of Cloudflare's API v4 on this port.
        CLOUDFLARE_API_URL: `http://127.0.0.1:${PORT + 1}`,
        // tests/e2e/dns-integrations.spec.ts starts the fake of GitHub's REST API on this one.
        GITHUB_API_URL: `http://127.0.0.1:${PORT + 2}`,
        // tests/e2e/release-sources.spec.ts starts the fake of the projects' release hosts on this
        // one ("Check for new releases" reads https://<host>/<path> at <url>/<host>/<path>).
        RELEASE_SOURCES_URL: `http://127.0.0.1:${PORT + 3}`,
        // tests/e2e/billing-card.spec.ts starts the Stripe fake on +4 (its /v3 is the Stripe.js
        // stand-in the payment pages load) and the PayPal fake on +5.
        STRIPE_JS_URL: `http://127.0.0.1:${PORT + 4}/v3`,
        SMTP_URL: `smtp://127.0.0.1:${MAILBOX_SMTP_PORT}`,
      },
    },
  ],
});
