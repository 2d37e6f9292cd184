import Database from 'better-sqlite3';
import { E2E_ADMIN, expect, test, uniqueEmail, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-referrals';
/** The panel's SQLite file of this run (playwright.config.ts: DATA_DIR per port). */
const DB_FILE = `.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}/stackdeck.db`;

/**
 * Billing credits a referrer 10 % of each invoice their referred user pays (the `invoice.paid`
 * event, tests/api/billing.test.ts); to reach the payout quickly, the test writes the same two
 * rows ReferralRepository.recordEarning writes.
 */
function creditEarning(referrerId: number, referredId: number, cents: number) {
  const db = new Database(DB_FILE);
  try {
    db.transaction(() => {
      db.prepare(
        `insert into referral_earnings (referrer_id, referred_user_id, amount_cents, reason, created_at)
         values (?, ?, ?, 'e2e invoice', ?)`,
      ).run(referrerId, referredId, cents, new Date().toISOString());
      db.prepare(
        `insert into referral_accounts (user_id, earned_cents, withdrawn_cents) values (?, ?, 0)
         on conflict (user_id) do update set earned_cents = earned_cents + excluded.earned_cents`,
      ).run(referrerId, cents);
    })();
  } finally {
    db.close();
  }
}

test('a referrer asks for a payout and the admin marks it paid', async ({ page, browser, api }) => {
  const referrer = await api.account();
  const registered = await page.request.post(`/api/v1/users?ref=${referrer.uuid}`, {
    data: { user_name: 'Friend', email: uniqueEmail('friend'), password: 'a long e2e password' },
  });
  expect(registered.status()).toBe(201);
  creditEarning(referrer.id, ((await registered.json()) as { id: number }).id, 2500);

  await openSignedIn(page, referrer.email, referrer.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/refer-a-friend');
  await expect(page.getByTestId('stat-earned')).toHaveText('$25.00');
  await expect(page.getByTestId('stat-withdrawable')).toHaveText('$25.00');

  const form = page.getByRole('region', { name: 'Withdraw' });
  await form.getByLabel('Amount (USD)').fill('5');
  await form.getByRole('textbox', { name: 'Payout details' }).fill('friend@paypal.test');
  await form.getByRole('button', { name: 'Request withdrawal' }).click();
  await expect(form.getByText('The smallest withdrawal is $10.00')).toBeVisible();
  await form.getByLabel('Amount (USD)').fill('20');
  await form.getByRole('button', { name: 'Request withdrawal' }).click();
  // What stays on the page, not the notification, which hides itself after a few seconds (a
  // slow CI machine once missed it).
  await expect(page.getByTestId('stat-withdrawable')).toHaveText('$5.00');
  const history = page.getByRole('table', { name: 'Withdrawal history' });
  await expect(history.getByRole('row').nth(1)).toContainText('$20.00');
  await expect(history.getByRole('row').nth(1)).toContainText('pending');
  await page.screenshot({ path: `${SHOTS}/withdrawal-requested.png`, fullPage: true });

  // The admin approves it, pays it (outside the panel) and marks it paid.
  const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const admin = await adminContext.newPage();
  await openSignedIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).not.toHaveURL(/\/login/);
  await admin.goto('/admin/referrals');
  const row = admin.getByRole('row', { name: new RegExp(referrer.email) });
  await expect(row).toContainText('$20.00');
  await expect(row).toContainText('friend@paypal.test');
  await admin.screenshot({ path: `${SHOTS}/admin-referrals.png`, fullPage: true });
  await row.getByRole('button', { name: 'Approve' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  // Approved, it has left the pending list: the approved one shows it to pay.
  await expect(admin.getByRole('row', { name: new RegExp(referrer.email) })).toHaveCount(0);
  await admin.getByRole('combobox', { name: 'Status' }).click();
  await admin.getByRole('option', { name: 'Approved' }).click();
  const approved = admin.getByRole('row', { name: new RegExp(referrer.email) });
  await approved.getByRole('button', { name: 'Mark paid' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Mark paid' }).click();
  await expect(admin.getByRole('row', { name: new RegExp(referrer.email) })).toHaveCount(0);
  await adminContext.close();

  await page.reload();
  await expect(page.getByTestId('stat-paid')).toHaveText('$20.00');
  await expect(history.getByRole('row').nth(1)).toContainText('paid');
});
