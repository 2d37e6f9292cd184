import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The file manager and the editor against a real server (a sandbox with the real agent, nginx
 * and PHP-FPM): browse, create a file, edit it in Monaco, Ctrl+S, reload, delete with a
 * confirmation. Each step is checked on the server too.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const server = useSandboxServer({
  serverName: 'e2e-files',
  services: ['ssh', 'nginx', 'php8.2-fpm'],
});
let sb: SandboxServer;
let appId = 0;
const APP = '/home/alice/apps/shop';

const SHOTS = '.tmp/shots-files';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${PANEL}/api/v1/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as { id: number };
}

const curl = async (url: string) =>
  (await sb.sandbox.exec(['curl', '-s', '-H', 'Host: shop.test', `http://127.0.0.1${url}`])).stdout;

test('browse, create a file, edit it in Monaco with Ctrl+S, reload, delete it', async ({
  page,
}) => {
  sb = await server.ready();
  const where = `servers/${sb.serverId}/users/${sb.account.id}`;
  await post(`sysusers/${where}`, { user_name: 'alice', password: 'a long system password 1' });
  appId = (
    await post(`webstacks/${where}`, { name: 'shop', domains: ['shop.test'], sys_user: 'alice' })
  ).id;

  // Monaco comes from the panel's own files: no request leaves its origin (no CDN).
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(PANEL) && !/^(data|blob):/.test(r.url())) elsewhere.push(r.url());
  });
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/file-manager/${sb.serverId}/${appId}`);
  await expect(page.getByTestId('webapp-strip')).toContainText('alice', { timeout: 30_000 });
  const files = page.getByRole('table', { name: 'Files' });
  await files.getByRole('button', { name: 'public' }).click();
  await expect(page).toHaveURL(/path=%2Fpublic/);
  await expect(files.getByRole('button', { name: 'index.php' })).toBeVisible();

  // A new file, by keyboard: the dialog's field has the focus, Enter creates.
  await page.getByRole('button', { name: 'New file' }).click();
  await page.getByLabel('Name').fill('hello.php');
  await page.keyboard.press('Enter');
  await expect(files.getByRole('button', { name: 'hello.php' })).toBeVisible();
  await shot(page, 'file-manager');

  await files.getByRole('button', { name: 'hello.php' }).click();
  await expect(page).toHaveURL(/\/file-editor\/.*path=%2Fpublic%2Fhello\.php/);
  const editor = page.getByTestId('file-editor').locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 30_000 });
  await editor.click();
  await page.keyboard.type('<?php echo "from the editor";');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.keyboard.press('Control+s');
  await expect(page.getByText('Saved hello.php')).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toBeHidden();
  await shot(page, 'file-editor');
  expect(await curl('/hello.php')).toBe('from the editor');
  const owner = await sb.sandbox.execOk(['stat', '-c', '%U', `${APP}/public/hello.php`]);
  expect(owner.stdout.trim()).toBe('alice');

  await page.reload();
  await expect(page.getByTestId('file-editor').locator('.view-lines')).toContainText(
    'from the editor',
    { timeout: 30_000 },
  );

  // Back to the folder; delete, after the confirmation, to the trash.
  await page.getByRole('button', { name: 'Back to the files' }).click();
  await page.getByRole('checkbox', { name: 'Select hello.php' }).check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete hello.php?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(files.getByRole('button', { name: 'index.php' })).toBeVisible();
  await expect(files.getByRole('button', { name: 'hello.php' })).toBeHidden();
  expect(elsewhere).toEqual([]);
  const trash = await sb.sandbox.exec(['find', '/home/alice/.trash', '-name', 'hello.php']);
  expect(trash.stdout, trash.stderr).toMatch(/\/shop\/public\/hello\.php$/m);
});

test('the built panel loads Monaco from its own files: no CDN in the assets', () => {
  const web = process.env.E2E_WEB_DIR ?? 'dist/web';
  const files = [
    path.join(web, 'index.html'),
    ...readdirSync(path.join(web, 'assets'))
      .filter((f) => /\.(js|css)$/.test(f))
      .map((f) => path.join(web, 'assets', f)),
  ];
  expect(files.some((f) => /editor\.worker-.*\.js$/.test(f))).toBe(true);
  const cdn =
    /https?:\/\/(cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|[a-z.]*googleapis\.com|esm\.sh|cdn\.skypack\.dev)[^`'"\s)]*/g;
  const found: string[] = [];
  for (const file of files) {
    // @monaco-editor/loader's default `paths.vs`, which loader.config({ monaco }) replaces
    // (the runtime test above proves no request leaves the panel): the one mention allowed.
    const text = readFileSync(file, 'utf8').replace(
      /paths:\{vs:`https:\/\/cdn\.jsdelivr\.net\/npm\/monaco-editor@[\d.]+\/min\/vs`\}/g,
      '',
    );
    for (const m of text.matchAll(cdn)) found.push(`${path.basename(file)}: ${m[0]}`);
  }
  expect(found).toEqual([]);
});
