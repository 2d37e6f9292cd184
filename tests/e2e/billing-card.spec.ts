import type { APIRequestContext, Page } from '@playwright/test';
import { type FakePaypal, startFakePaypal } from '../fakes/paypal';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe';
import { Api, expect, openSignedIn, test } from './fixtures';

/**
 * Issue 26, paying by card and by PayPal as a person does, against the local fakes: Stripe's on
 * E2E_PORT+4 (its `/v3` is the Stripe.js the panel's payment pages load: STRIPE_JS_URL in
 * playwright.config.ts), PayPal's on E2E_PORT+5 (its approve page). An admin adds both gateways'
 * keys through the API first and removes them at the end, so the other specs see a panel with
 * bank transfer only; billing.spec.ts shares this file's lock, so it never runs meanwhile.
 */
test.describe.configure({ mode: 'serial', lock: 'billing-gateways' });

const PORT = Number(process.env.E2E_PORT ?? 4173);
let stripe: FakeStripe;
let paypal: FakePaypal;

const CREDENTIALS = '/api/v1/admin/api-credentials';

/** Removes the panel's Stripe and PayPal keys (a run cut short may have left them). */
async function removeGatewayKeys(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const listed = await request.get(`${CREDENTIALS}?perPage=100`, { headers });
  expect(listed.status(), await listed.text()).toBe(200);
  const { data } = (await listed.json()) as { data: { id: number; provider: string }[] };
  for (const row of data.filter((r) => r.provider === 'stripe' || r.provider === 'paypal')) {
    const gone = await request.delete(`${CREDENTIALS}/${row.id}`, { headers });
    expect(gone.status(), await gone.text()).toBeLessThan(300);
  }
}

test.beforeAll(async ({ request }) => {
  [stripe, paypal] = await Promise.all([
    startFakeStripe({ port: PORT + 4 }),
    startFakePaypal({ port: PORT + 5 }),
  ]);
  const token = await new Api(request).admin();
  await removeGatewayKeys(request, token);
  const headers = { authorization: `Bearer ${token}` };
  for (const data of [
    {
      provider: 'stripe',
      name: 'Stripe (the local fake)',
      secretKey: stripe.secretKey,
      publishableKey: stripe.publishableKey,
      webhookSecret: stripe.webhookSecret,
      apiBase: stripe.url,
    },
    {
      provider: 'paypal',
      name: 'PayPal (the local fake)',
      clientId: paypal.clientId,
      clientSecret: paypal.clientSecret,
      webhookId: paypal.webhookId,
      apiBase: paypal.url,
    },
  ]) {
    const added = await request.post(CREDENTIALS, { headers, data });
    expect(added.status(), await added.text()).toBe(201);
  }
});

test.afterAll(async ({ request }) => {
  await removeGatewayKeys(request, await new Api(request).admin());
  await Promise.all([stripe?.close(), paypal?.close()]);
});

/** A new user on /pricing picks a plan, monthly, paid the given way: the payment page opens. */
async function choosePlan(page: Page, api: Api, plan: 'Basic' | 'Pro', payBy: 'Card' | 'PayPal') {
  const user = await api.account();
  await openSignedIn(page, user.email, user.password, '/pricing');
  await page.getByRole('combobox', { name: 'Pay by' }).click();
  await page.getByRole('option', { name: payBy }).click();
  await page
    .getByRole('article', { name: plan })
    .getByRole('button', { name: `Choose ${plan}` })
    .click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
}

test('a user pays for Basic with a test card in the card form', async ({ page, api }) => {
  await choosePlan(page, api, 'Basic', 'Card');
  const form = page.getByRole('form', { name: 'Card payment' });
  // Stripe.js's card field (here the stand-in's): a test card number Stripe documents.
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry').fill('12 / 34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('This invoice is paid. Thank you.')).toBeVisible();
  expect(stripe.chargeCount()).toBe(1);

  await page.goto('/subscription');
  await expect(page.getByTestId('plan-in-force')).toHaveText('Basic');
  await expect(page.getByTestId('subscription-status')).toHaveText('Active');
});

test('a card that asks for 3-D Secure pays once the user authenticates', async ({ page, api }) => {
  await choosePlan(page, api, 'Basic', 'Card');
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4000 0025 0000 3155');
  // The stand-in's challenge is a confirm() dialog: the user authenticates. (Accepted in the
  // handler: the click does not return while the dialog is open.)
  const challenges: string[] = [];
  page.once('dialog', (dialog) => {
    challenges.push(dialog.message());
    void dialog.accept();
  });
  await form.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('This invoice is paid. Thank you.')).toBeVisible();
  expect(challenges).toEqual([expect.stringContaining('3-D Secure')]);
  await page.goto('/subscription');
  await expect(page.getByTestId('plan-in-force')).toHaveText('Basic');
});

test("a user pays for Pro on PayPal's approve page and comes back with Pro", async ({
  page,
  api,
}) => {
  await choosePlan(page, api, 'Pro', 'PayPal');
  await page.getByRole('link', { name: 'Pay with PayPal' }).click();
  // PayPal's page (the fake's): the amount, then the buyer approves.
  await expect(page).toHaveURL(new RegExp(`^${paypal.url}/checkoutnow\\?token=`));
  await expect(page.getByText('Pay 19.00 USD')).toBeVisible();
  await page.getByRole('button', { name: 'Approve and pay' }).click();

  // PayPal sends the buyer back; the panel captures the order and shows the plan.
  await expect(page).toHaveURL(/\/subscription\?paypal=succeeded$/);
  await expect(page.getByTestId('paypal-return')).toHaveText('Your PayPal payment went through.');
  await expect(page.getByTestId('plan-in-force')).toHaveText('Pro');
  await expect(page.getByTestId('subscription-status')).toHaveText('Active');
  expect(paypal.captureCount()).toBe(1);
});
