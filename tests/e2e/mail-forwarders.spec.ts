import path from 'node:path';
import Database from 'better-sqlite3';
import { axeReport, blockingViolations } from './axe';
import { expect, openSignedIn, test } from './fixtures';

/**
 * /forwarders as a person uses it, by keyboard: the empty state, a forwarder added in the
 * dialog (a mailbox's address refused at its field), the catch-all of the domain set, and a
 * delete confirmed by the address it names; axe finds nothing serious on the filled page. The server is never connected: what is saved
 * waits for it (pending), as it would while a server is offline; tests/system/mail.test.ts
 * proves the mail on a real one.
 */
const DB_FILE = path.join(`.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}`, 'stackdeck.db');

/** An app of the server with mail on, written where the panel reads it (no agent here). */
function appWithMail(serverId: number, name: string): number {
  const db = new Database(DB_FILE);
  try {
    const now = new Date().toISOString();
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO webapps (server_id, status, name, webapp_type, stack_type, php_version, domains,
           web_root, php_settings, sys_user, created_at, updated_at)
         VALUES (?, 'active', ?, 'custom', 'nginx', '8.2', ?, 'public', '{}', ?, ?, ?)`,
      )
      .run(serverId, name, JSON.stringify([`${name}.example`]), name, now, now);
    db.prepare('INSERT INTO mail_servers (server_id, enabled, updated_at) VALUES (?, 1, ?)').run(
      serverId,
      now,
    );
    return Number(lastInsertRowid);
  } finally {
    db.close();
  }
}

test('forwarders: add, catch-all, delete; errors at their field', async ({
  page,
  api,
  request,
}) => {
  const account = await api.account();
  const { token } = await api.login(account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  const made = await request.post(`/api/v1/servers/users/${account.id}?action=create`, {
    headers,
    data: { name: 'fwd-1' },
  });
  const serverId = ((await made.json()) as { id: number }).id;
  const name = `fwd${account.id}`;
  const domain = `${name}.example`;
  const appId = appWithMail(serverId, name);
  const box = await request.post(
    `/api/v1/mail-user/servers/${serverId}/users/${account.id}?wsid=${appId}`,
    { headers, data: { local: 'info', domain, password: 'a long mail password' } },
  );
  expect(box.status(), await box.text()).toBe(202);

  await openSignedIn(page, account.email, account.password, '/forwarders');
  await expect(page.getByRole('heading', { name: 'No forwarders yet' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Catch-all' })).toContainText(domain);

  await page.getByRole('button', { name: 'Add forwarder' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add a forwarder' });
  await expect(dialog.getByLabel('Address')).toBeFocused();
  await page.keyboard.type('info');
  await page.keyboard.press('Tab');
  await page.keyboard.type('me@far.example');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText(`info@${domain} is a mailbox`)).toBeVisible();
  await dialog.getByLabel('Address').fill('sales');
  await dialog.getByLabel('Address').press('Enter');
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(`sales@${domain}`) });
  await expect(row).toContainText('me@far.example');
  await expect(row).toContainText('Pending');

  await page.getByRole('button', { name: `Set up the catch-all of ${domain}` }).click();
  const catchAll = page.getByRole('dialog', { name: `Catch-all of ${domain}` });
  await page.keyboard.type(`ghost@${domain}`);
  await catchAll.getByRole('button', { name: 'Save catch-all' }).click();
  await expect(catchAll.getByText(/leads back to the catch-all/)).toBeVisible();
  await catchAll.getByLabel('Forward to').fill(`info@${domain}`);
  await catchAll.getByRole('button', { name: 'Save catch-all' }).click();
  await expect(catchAll).toBeHidden();
  await expect(page.getByRole('region', { name: 'Catch-all' })).toContainText(`info@${domain}`);
  const findings = await blockingViolations(page, '/forwarders with a forwarder and a catch-all');
  expect(findings, axeReport(findings)).toEqual([]);

  await row.getByRole('button', { name: `Delete sales@${domain}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete sales@${domain}?` });
  await confirm.getByRole('button', { name: `Delete sales@${domain}` }).click();
  await expect(confirm).toBeHidden();
  // Offline: it waits to leave the server.
  await expect(row).toContainText('Deleting');
});
