import { mkdirSync } from 'node:fs';
import { expect, signIn, test } from './fixtures';
import { type SandboxServer, useSandboxServer } from './sandboxServer';

/**
 * The limits card on an app's settings page against a real server: the defaults shown, a value
 * out of bounds said at its field, a saved limit in the file the server's wrapper reads.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const server = useSandboxServer({ serverName: 'e2e-limits', services: ['ssh', 'nginx'] });
let sb: SandboxServer;

const SHOTS = '.tmp/shots-limits';
mkdirSync(SHOTS, { recursive: true });

test.beforeAll(async () => {
  sb = await server.ready();
});

test('limits: the defaults, a refused value, a saved one on the server', async ({
  page,
  request,
  api,
}) => {
  const me = await api.login(sb.account.email, sb.account.password);
  const post = (path: string, data: unknown) =>
    request.post(`/api/v1/${path}/servers/${sb.serverId}/users/${me.id}`, {
      headers: { authorization: `Bearer ${me.token}` },
      data,
    });
  const user = await post('sysusers', { user_name: 'site', password: 'a long system password 1' });
  expect(user.status(), await user.text()).toBe(201);
  const res = await post('webstacks', {
    name: 'site',
    webapp_type: 'static',
    domains: ['site.test'],
    sys_user: 'site',
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };

  await signIn(page, sb.account.email, sb.account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/app-settings/${sb.serverId}/${id}`);
  const card = page.getByRole('region', { name: 'Limits' });
  await expect(card.getByText('The defaults apply.')).toBeVisible();
  await expect(card.getByLabel('Processes at most')).toHaveValue('256');
  await expect(card.getByLabel('Memory per process (MiB)')).toHaveValue('1024');

  await card.getByLabel('Processes at most').fill('8');
  await card.getByRole('button', { name: 'Save limits' }).click();
  await expect(card.getByText('At least 16')).toBeVisible();

  await card.getByLabel('Processes at most').fill('64');
  await card.getByLabel('Memory per process (MiB)').fill('512');
  await card.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('The limits apply to the app’s jobs now.')).toBeVisible();
  await expect(
    card.getByText('site’s jobs run under 64 processes and 512 MiB per process'),
  ).toBeVisible();
  await page.screenshot({
    path: `${SHOTS}/app-limits.png`,
    fullPage: true,
    animations: 'disabled',
  });
  const conf = await sb.sandbox.execOk(['cat', '/etc/stackdeck-limits/site.conf']);
  expect(conf.stdout).toContain('processes=64\nmemory_mb=512\n');
});
