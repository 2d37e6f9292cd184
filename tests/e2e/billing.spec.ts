import { type AxeFinding, axeReport, blockingViolations } from './axe';
import { E2E_ADMIN, expect, openSignedIn, test } from './fixtures';

/**
 * Issue 26, the billing pages as a person meets them: a user picks Basic on /pricing and pays
 * by bank transfer, an admin marks the invoice paid from the user's profile, the user sees the
 * plan active with its invoice, then cancels at the period's end.
 */
// billing-card.spec.ts adds card and PayPal keys while it runs: this spec sees bank transfer only.
test.describe.configure({ lock: 'billing-gateways' });

test('a user subscribes to Basic by bank transfer, an admin marks it paid, the user cancels', async ({
  page,
  browser,
  api,
}) => {
  // Each billing page, once it shows its data, has no serious WCAG 2.1 A/AA violation (axe).
  const findings: AxeFinding[] = [];
  const user = await api.account();
  await openSignedIn(page, user.email, user.password);

  // Spec s.6: the header's offer to a user not on Pro leads to the plans.
  await page.getByRole('link', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  const card = (name: string) => page.getByRole('article', { name });
  await expect(card('Free')).toContainText('1 server');
  await expect(card('Basic')).toContainText('9.00 USD');
  await expect(card('Basic')).toContainText('5 servers');
  await expect(card('Pro')).toContainText('19.00 USD');
  await expect(card('Pro')).toContainText('Unlimited servers');

  // Annual: the year's price and what it saves against twelve months.
  await page.getByRole('button', { name: 'Annual' }).click();
  await expect(card('Basic')).toContainText('90.00 USD');
  await expect(card('Basic')).toContainText('Save 18.00 USD a year');
  await page.getByRole('button', { name: 'Monthly' }).click();
  await expect(card('Basic')).toContainText('9.00 USD');
  findings.push(...(await blockingViolations(page, '/pricing')));

  await expect(page.getByRole('combobox', { name: 'Pay by' })).toHaveText('Bank transfer');
  await card('Basic').getByRole('button', { name: 'Choose Basic' }).click();

  // The payment page: the amount, the bank's instructions, the reference to copy.
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const invoiceId = /\/payment\/(\d+)$/.exec(page.url())![1]!;
  const heading = page.getByRole('heading', { level: 1, name: /^Pay invoice \S+/ });
  await expect(heading).toBeVisible();
  const number = (await heading.textContent())!.replace('Pay invoice ', '').trim();
  await expect(page.getByTestId('transfer-instructions')).toContainText('9.00 USD');
  await expect(page.getByTestId('transfer-instructions')).toContainText('bank transfer');
  await expect(page.getByRole('button', { name: 'Copy the reference' })).toBeVisible();
  findings.push(...(await blockingViolations(page, '/payment/:id')));

  // The spec's own spelling of the address (/payment{id}) leads to the same page.
  await page.goto(`/payment${invoiceId}`);
  await expect(page).toHaveURL(new RegExp(`/payment/${invoiceId}$`));
  await expect(heading).toBeVisible();

  // Back on /pricing the chosen plan leads to its invoice rather than to a second order.
  await page.goto('/pricing');
  await expect(card('Basic').getByRole('link', { name: 'Pay for Basic' })).toHaveAttribute(
    'href',
    `/payment/${invoiceId}`,
  );

  await page.goto('/subscription');
  await expect(page.getByTestId('subscription-status')).toHaveText('Waiting for payment');
  await expect(page.getByRole('alert').filter({ hasText: number })).toContainText(
    'waiting for payment',
  );

  // The admin marks the transfer paid from the user's profile, after confirming.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await openSignedIn(admin, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/user-profile/${user.id}`);
  const row = admin.getByRole('row', { name: new RegExp(number) });
  await row.getByLabel('Bank reference').fill('BANK-REF-2611');
  await row.getByRole('button', { name: 'Mark paid' }).click();
  const dialog = admin.getByRole('dialog', { name: `Mark invoice ${number} paid?` });
  await expect(dialog).toContainText('BANK-REF-2611');
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(admin.getByText('No invoice is waiting for payment.')).toBeVisible();
  await expect(admin.getByRole('table', { name: 'Revenue' })).toContainText(number);
  findings.push(...(await blockingViolations(admin, '/admin/user-profile/:id')));
  await adminContext.close();

  // The user's plan is Basic, active, with the paid invoice listed.
  await page.reload();
  await expect(page.getByTestId('plan-in-force')).toHaveText('Basic');
  await expect(page.getByTestId('subscription-status')).toHaveText('Active');
  const invoiceRow = page.getByRole('table', { name: 'Invoices' }).getByRole('row', {
    name: new RegExp(number),
  });
  await expect(invoiceRow).toContainText('Paid');
  findings.push(...(await blockingViolations(page, '/subscription')));
  await invoiceRow.getByRole('link', { name: number }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-invoice/${invoiceId}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Invoice ${number}` })).toBeVisible();
  await expect(page.getByTestId('invoice-total')).toHaveText('9.00 USD');
  findings.push(...(await blockingViolations(page, '/payment-invoice/:id')));

  // Cancelling asks first, then the page says when the plan ends.
  await page.getByRole('link', { name: 'Back to subscription' }).click();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
  await expect(confirm).toContainText('You keep Basic until');
  await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('plan-ends')).toContainText(/Your subscription ends on \S+/);
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeHidden();
  expect(findings, axeReport(findings)).toEqual([]);
});
