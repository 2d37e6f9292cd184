import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';
import { PANEL, type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * Git deployment pages against a real server: a sandbox with the real agent and nginx, and a
 * git server inside it (a `git` user with git-shell, a bare repository, the app user's
 * deployment key). Each deploy is checked with `curl` through nginx.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const server = useSandboxServer({
  serverName: 'e2e-gitdeploy',
  services: ['ssh', 'nginx', 'php8.2-fpm'],
});
let sb: SandboxServer;
let appId = 0;

const SHOTS = '.tmp/shots-gitdeploy';
mkdirSync(SHOTS, { recursive: true });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${PANEL}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

const site = async () =>
  (
    await sb.sandbox.exec(['curl', '-s', '-H', 'Host: site.test', 'http://127.0.0.1/'])
  ).stdout.trim();

async function signedIn(page: Page) {
  await openSignedIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('not configured: the form, with the deployment key; a bad URL is said at its field', async ({
  page,
}) => {
  sb = await server.ready();
  const where = `servers/${sb.serverId}/users/${sb.account.id}`;
  const user = await api('POST', `sysusers/${where}`, {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  appId = Number(
    (
      await api('POST', `webstacks/${where}`, {
        name: 'site',
        domains: ['site.test'],
        sys_user: 'alice',
      })
    ).id,
  );
  const key = String(
    (
      await api(
        'GET',
        `sysusers/${user.id}/servers/${sb.serverId}/users/${sb.account.id}?rsa=create`,
      )
    ).public_key,
  );
  const run = (argv: string[], input?: string) =>
    sb.sandbox.execOk(argv, input === undefined ? {} : { input });
  const asGit = (...argv: string[]) =>
    run(['runuser', '-u', 'git', '--', 'env', 'HOME=/home/git', ...argv]);
  await run(['useradd', '-m', '-s', '/usr/bin/git-shell', 'git']);
  await run(['mkdir', '-p', '-m', '0700', '/home/git/.ssh', '/srv/git', '/home/git/work/public']);
  await run(['tee', '/home/git/.ssh/authorized_keys'], `restrict ${key}\n`);
  await run(['tee', '/home/git/work/public/index.html'], 'deployed from git\n');
  await run(['chown', '-R', 'git:git', '/home/git', '/srv/git']);
  await asGit('git', 'init', '-q', '--bare', '-b', 'main', '/srv/git/site.git');
  await asGit('git', '-C', '/home/git/work', 'init', '-q', '-b', 'main');
  await asGit('git', '-C', '/home/git/work', 'add', '-A');
  await asGit(
    'git',
    '-C',
    '/home/git/work',
    '-c',
    'user.name=Dev',
    '-c',
    'user.email=d@site.test',
    'commit',
    '-q',
    '-m',
    'v1',
  );
  await asGit('git', '-C', '/home/git/work', 'push', '-q', '/srv/git/site.git', 'main');

  await signedIn(page);
  await page.goto(`/git/${sb.serverId}/${appId}`);
  await expect(page.getByRole('heading', { name: 'Git deployment of site' })).toBeVisible();
  await expect(page.getByTestId('deploy-key')).toContainText(key.split(' ')[1]!);
  await page.getByLabel('Repository URL').fill('--upload-pack=touch /tmp/x');
  await page.getByRole('button', { name: 'Configure' }).click();
  await expect(page.getByText(/A repository URL: git@host/).first()).toBeVisible();
  await shot(page, 'git-configure-bad');
});

test('configure, deploy now: the site serves the release, the history shows the output', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/git/${sb.serverId}/${appId}`);
  await page.getByLabel('Repository URL').fill('git@127.0.0.1:/srv/git/site.git');
  await page.getByLabel('Deployment script').fill('echo "built by $(id -un)"');
  await page.getByRole('button', { name: 'Configure' }).click();
  await expect(page).toHaveURL(new RegExp(`/git-configure/${sb.serverId}/${appId}$`));
  await expect(page.getByTestId('host-key')).toContainText('SHA256:');
  await expect(page.getByText('No deploys yet')).toBeVisible();
  // The app already has files: the page says the first deploy keeps them as a release.
  await expect(page.getByTestId('first-deploy-notice')).toContainText('keeps them as the release');
  await shot(page, 'git-first-deploy-notice');
  await page.getByRole('button', { name: 'Deploy now' }).click();
  const row = page.getByTestId('deploy-row').first();
  await expect(row.getByText('completed')).toBeVisible({ timeout: 60_000 });
  await row.getByRole('button', { name: 'Show the output' }).click();
  await expect(page.getByText('built by alice')).toBeVisible();
  expect(await site()).toBe('deployed from git');
  await shot(page, 'git-deployed');
  // Roll back asks first and offers the kept releases: the files from before git among them.
  await page.getByRole('button', { name: 'Roll back…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('The files from before the first deploy')).toBeVisible();
  await shot(page, 'git-rollback-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await site()).toBe('deployed from git');
});

test('webhook: its secret is shown on asking, a new one after a confirmation; remove asks first and the site keeps serving', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/git/${sb.serverId}/${appId}`);
  await expect(page).toHaveURL(new RegExp(`/git-configure/${sb.serverId}/${appId}$`));
  // The switch shows the server's answer (PATCH gitwebhook), not the click: wait for it.
  const onPush = page.getByLabel('Deploy on push');
  await onPush.click();
  await expect(onPush).toBeChecked({ timeout: 15_000 });
  // The secret is masked until asked for; a new one is made only after a confirmation.
  await expect(page.getByTestId('webhook-secret')).toHaveValue(/^•+$/);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveValue(/[0-9a-f]{64}/);
  const before = await page.getByTestId('webhook-secret').inputValue();
  await page.getByRole('button', { name: 'Generate a new secret' }).click();
  await expect(page.getByRole('dialog')).toContainText(
    'pushes signed with the old ones are refused',
  );
  await shot(page, 'git-webhook-regenerate');
  await page.getByRole('dialog').getByRole('button', { name: 'Make a new secret' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveValue(/[0-9a-f]{64}/);
  expect(await page.getByTestId('webhook-secret').inputValue()).not.toBe(before);
  await expect(page.getByLabel('Payload URL')).toHaveValue(/\/api\/v1\/hooks\/git\//);
  await shot(page, 'git-webhook');
  await page.getByRole('button', { name: 'Remove git deployment' }).click();
  await expect(page.getByRole('dialog')).toContainText('keeps serving its current release');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page).toHaveURL(new RegExp(`/git/${sb.serverId}/${appId}$`));
  await expect(page.getByLabel('Repository URL')).toBeVisible();
  expect(await site()).toBe('deployed from git');
});
