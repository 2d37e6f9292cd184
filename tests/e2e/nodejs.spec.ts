import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { serveNodeRepository } from '../system/harness/nodeRepository';
import { expect, test, openSignedIn } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The Node.js installer's page against a real server (a sandbox with nginx and supervisor):
 * the form, a refused git address said at its field, the install's progress, and the app it
 * made answering through nginx (`curl` inside the sandbox). The repository is served inside
 * the sandbox (tests/system/harness/nodeRepository.ts).
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const server = useSandboxServer({
  serverName: 'e2e-nodejs',
  services: ['ssh', 'nginx', 'supervisor'],
});
let sb: SandboxServer;

const SHOTS = '.tmp/shots-nodejs';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

test('installs a Node.js app from git on the page, and it answers through nginx', async ({
  page,
}) => {
  sb = await server.ready();
  const gitUrl = await serveNodeRepository(sb.sandbox, 18_792);

  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/web-applications/${sb.serverId}`);
  await expect(page).toHaveURL(new RegExp(`/no-webapplications/${sb.serverId}$`));
  await page.getByRole('button', { name: 'Install an app' }).click();
  await page.getByRole('menuitem', { name: 'Node.js' }).click();
  await expect(page).toHaveURL(new RegExp(`/install-nodejs/${sb.serverId}$`));
  await expect(page.getByRole('heading', { name: 'Install Node.js' })).toBeVisible();
  // Node.js runs no PHP and nginx alone proxies it: neither is asked.
  await expect(page.getByLabel('PHP')).toHaveCount(0);

  await page.getByLabel('App name').fill('hello');
  await page.getByLabel('Domains').fill('node.test');
  await page.getByRole('combobox', { name: 'System user' }).click();
  await page.getByRole('option', { name: 'stackdeck', exact: true }).click();
  await page.getByLabel('Git repository').fill('ext::sh -c touch% /tmp/pwned');
  await page.getByLabel('Branch or tag').fill('main');
  await page.getByRole('button', { name: 'Install Node.js' }).click();
  await expect(page.getByText('Only https:// addresses')).toBeVisible();
  await expect(page.getByLabel('App name')).toHaveValue('hello');
  await page.getByLabel('Git repository').fill(gitUrl);
  await expect(page.getByLabel('Entry file')).toHaveValue('server.js');
  await shot(page, 'nodejs-form');
  await page.getByRole('button', { name: 'Install Node.js' }).click();

  const progress = page.getByTestId('install-progress');
  await expect(progress).toBeVisible();
  await expect(
    progress
      .getByRole('list', { name: 'Steps' })
      .getByText('The Node.js app answers at http://node.test'),
  ).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('progressbar', { name: /: 100%$/ })).toBeVisible();
  await shot(page, 'nodejs-installed');

  const site = await sb.sandbox.execOk([
    'curl',
    '-s',
    '--resolve',
    'node.test:80:127.0.0.1',
    'http://node.test/',
  ]);
  expect(site.stdout).toMatch(/^hello from node, undefined, as stackdeck pid \d+/);
});

test('installs a Node.js app from an uploaded .tar.gz, the source chosen with the keyboard', async ({
  page,
}) => {
  sb = await server.ready();
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-node-'));
  mkdirSync(path.join(dir, 'up'));
  writeFileSync(
    path.join(dir, 'up', 'server.js'),
    "require('node:http').createServer((q, s) => s.end('uploaded node ' + process.env.PORT + '\\n')).listen(Number(process.env.PORT), '127.0.0.1');\n",
  );
  const file = path.join(dir, 'up.tar.gz');
  execFileSync('tar', ['-czf', file, '-C', dir, 'up']);

  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/install-nodejs/${sb.serverId}`);
  await expect(page.getByRole('heading', { name: 'Install Node.js' })).toBeVisible();
  // The radio group moves with the arrow keys; the form waits for the archive.
  await page.getByRole('radio', { name: 'From git' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Upload an archive' })).toBeChecked();
  await expect(page.getByLabel('App name')).toHaveCount(0);
  await page.getByLabel('Archive of the code').setInputFiles(file);
  await expect(page.getByTestId('picked-archive')).toHaveText(/^up\.tar\.gz, 0\.0 MB$/);
  await expect(page.getByLabel('Git repository')).toHaveCount(0);

  await page.getByLabel('App name').fill('uploaded');
  await page.getByLabel('Domains').fill('up.test');
  await page.getByRole('combobox', { name: 'System user' }).click();
  await page.getByRole('option', { name: 'stackdeck', exact: true }).click();
  await shot(page, 'nodejs-upload-form');
  await page.getByRole('button', { name: 'Install Node.js' }).click();
  const progress = page.getByTestId('install-progress');
  await expect(
    progress
      .getByRole('list', { name: 'Steps' })
      .getByText('The Node.js app answers at http://up.test'),
  ).toBeVisible({ timeout: 90_000 });
  await expect(progress.getByText('Unpacking up.tar.gz (0.0 MB)')).toBeVisible();

  const site = await sb.sandbox.execOk([
    'curl',
    '-s',
    '--resolve',
    'up.test:80:127.0.0.1',
    'http://up.test/',
  ]);
  expect(site.stdout).toMatch(/^uploaded node 30\d\d$/m);
});
