import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingSweep } from '../../features/billing/serverApi';
import { useGatewayEnvironment } from '../../features/payment-methods/serverSettings';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Billing paid by card (issue 26): the billing core, payment methods and the Stripe rail
 * together against the local Stripe fake. The plan is granted on the server's own look at the
 * payment (a re-fetch after Stripe.js or a verified webhook), a renewal charges the saved card
 * once however often the sweep runs, and a refused renewal is past due.
 */
const DAY = 86_400_000;
let offset = 0;
const clock = () => Date.now() + offset;

let t: TestApp;
let stripe: FakeStripe;

beforeAll(async () => {
  [stripe, t] = await Promise.all([startFakeStripe(), buildTestApp({}, { clock })]);
  // The tests run billing's sweep themselves when they choose: the panel's own every-five-minutes
  // schedule, due at every move of the clock, would race them.
  await t.app.db
    .updateTable('schedules')
    .set({ enabled: 0 })
    .where('name', '=', 'billing.sweep')
    .execute();
  useGatewayEnvironment(t.app, {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
  });
});
afterAll(async () => {
  await Promise.all([t?.close(), stripe?.close()]);
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const signedAt = new WeakMap<TestUser, number>();
async function call(user: TestUser, method: Method, url: string, body?: unknown) {
  if ((signedAt.get(user) ?? 0) !== offset) {
    user.token = await t.login(user.email, user.password);
    signedAt.set(user, offset);
  }
  return t.call(method, `/api/v1/${url}`, { token: user.token, body });
}

const planOf = async (uid: number) =>
  (
    await t.app.db
      .selectFrom('users')
      .select('plan_id')
      .where('id', '=', uid)
      .executeTakeFirstOrThrow()
  ).plan_id;

/** The buyer's browser confirming with Stripe.js (the fake's route for what Stripe.js sends). */
async function confirmInBrowser(kind: 'setup' | 'payment', clientSecret: string, pm: string) {
  const id = clientSecret.split('_secret_')[0];
  const res = await fetch(`${stripe.url}/_fake/${kind}_intents/${id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      key: stripe.publishableKey,
      client_secret: clientSecret,
      payment_method: pm,
    }).toString(),
  });
  return res.status;
}

async function subscribeByCard(user: TestUser, planId: number) {
  const res = await call(
    user,
    'POST',
    `subscription/users/${user.id}?plan_id=${planId}&type=monthly&pay_type=card`,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as {
    invoice: { id: number; total_minor: number };
    payment: { client_secret: string | null; gateway: string; status: string | null };
  };
}

async function saveCard(user: TestUser, pm: string) {
  const started = await call(user, 'POST', `payment-methods/users/${user.id}`, {
    gateway: 'stripe',
  });
  expect(started.statusCode, started.body).toBe(201);
  const { client_secret, setup_ref } = started.json() as {
    client_secret: string;
    setup_ref: string;
  };
  expect(await confirmInBrowser('setup', client_secret, pm)).toBe(200);
  const done = await call(user, 'POST', `payment-methods/complete/users/${user.id}`, { setup_ref });
  expect(done.statusCode, done.body).toBe(201);
}

describe('subscribing by card', () => {
  it('grants the plan once the server has seen the payment succeed, not before', async () => {
    const user = await t.user();
    const offered = await call(user, 'GET', `subscription/users/${user.id}`);
    expect(offered.json().pay_types).toEqual(['manual', 'card']);
    const { invoice, payment } = await subscribeByCard(user, 3);
    expect(payment).toMatchObject({ gateway: 'stripe', status: 'requires_action' });
    expect(payment.client_secret).toMatch(/^pi_.+_secret_/);
    expect(await planOf(user.id)).not.toBe(3);
    // The page asks again before the buyer confirmed: still waiting, same secret.
    const waiting = await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(waiting.json()).toMatchObject({
      invoice_id: invoice.id,
      client_secret: payment.client_secret,
    });
    expect(await planOf(user.id)).not.toBe(3);

    expect(await confirmInBrowser('payment', payment.client_secret!, 'pm_card_visa')).toBe(200);
    // Stripe.js said done: the page asks the panel, which looks at Stripe itself.
    const paid = await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(paid.json()).toMatchObject({ status: 'succeeded' });
    expect(await planOf(user.id)).toBe(3);
    const detail = await call(user, 'GET', `billing-details/${invoice.id}/users/${user.id}`);
    expect(detail.json()).toMatchObject({ status: 'paid' });
  });

  it('grants it from a verified webhook when the browser never comes back, once', async () => {
    const user = await t.user();
    const { invoice, payment } = await subscribeByCard(user, 4);
    expect(await confirmInBrowser('payment', payment.client_secret!, 'pm_card_visa')).toBe(200);
    const intent = payment.client_secret!.split('_secret_')[0]!;
    const event = stripe.eventFor('payment_intent.succeeded', intent)!;
    const { rawBody, headers } = stripe.webhookDelivery(event);
    for (let i = 0; i < 2; i++) {
      const hook = await t.call('POST', '/api/v1/webhooks/stripe', {
        headers,
        body: rawBody.toString(),
      });
      expect(hook.statusCode, hook.body).toBe(200);
    }
    expect(await planOf(user.id)).toBe(4);
    const detail = await call(user, 'GET', `billing-details/${invoice.id}/users/${user.id}`);
    expect(detail.json()).toMatchObject({ status: 'paid' });
  });

  it('does not grant a plan for a payment the buyer failed to authenticate', async () => {
    const user = await t.user();
    const { payment } = await subscribeByCard(user, 3);
    expect(
      await confirmInBrowser('payment', payment.client_secret!, 'pm_card_chargeDeclined'),
    ).toBe(402);
    const after = await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(after.json().status).not.toBe('succeeded');
    expect(await planOf(user.id)).not.toBe(3);
  });
});

describe('renewing by card', () => {
  it('charges the saved card once per period, however often the sweep runs', async () => {
    const user = await t.user();
    await saveCard(user, 'pm_card_visa');
    const { payment } = await subscribeByCard(user, 3);
    expect(await confirmInBrowser('payment', payment.client_secret!, 'pm_card_visa')).toBe(200);
    await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(await planOf(user.id)).toBe(3);

    const charges = stripe.chargeCount();
    offset += 31 * DAY;
    await billingSweep(t.app, { inline: true });
    await billingSweep(t.app, { inline: true });
    expect(stripe.chargeCount()).toBe(charges + 1);
    const invoices = await call(user, 'GET', `billing-details/users/${user.id}`);
    const renewal = (invoices.json().data as Array<{ purpose: string; status: string }>).filter(
      (i) => i.purpose === 'renewal',
    );
    expect(renewal).toEqual([expect.objectContaining({ status: 'paid' })]);
    const sub = await call(user, 'GET', `subscription/users/${user.id}`);
    expect(sub.json()).toMatchObject({ plan_id: 3, subscription: { status: 'active' } });
  });

  it('moves a subscription whose saved card is refused to past due, plan kept for now', async () => {
    const user = await t.user();
    await saveCard(user, 'pm_card_chargeCustomerFail');
    const { payment } = await subscribeByCard(user, 3);
    expect(await confirmInBrowser('payment', payment.client_secret!, 'pm_card_visa')).toBe(200);
    await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(await planOf(user.id)).toBe(3);

    offset += 31 * DAY;
    await billingSweep(t.app, { inline: true });
    const sub = await call(user, 'GET', `subscription/users/${user.id}`);
    expect(sub.json()).toMatchObject({ plan_id: 3, subscription: { status: 'past_due' } });
  });
});

describe('the keys an admin sets', () => {
  it('come from /admin/api before the environment, and a rail switched off is not offered', async () => {
    const admin = await t.user({ admin: true });
    const user = await t.user();
    // Nothing in the environment: the admin's sealed keys are what the rail uses.
    useGatewayEnvironment(t.app, {});
    const refused = await call(
      user,
      'POST',
      `subscription/users/${user.id}?plan_id=3&type=monthly&pay_type=card`,
    );
    expect(refused.statusCode).toBe(409);
    const added = await call(admin, 'POST', 'admin/api-credentials', {
      provider: 'stripe',
      name: 'Stripe (the local fake)',
      secretKey: stripe.secretKey,
      publishableKey: stripe.publishableKey,
      webhookSecret: stripe.webhookSecret,
      apiBase: stripe.url,
    });
    expect(added.statusCode, added.body).toBe(201);
    const { payment } = await subscribeByCard(user, 3);
    expect(await confirmInBrowser('payment', payment.client_secret!, 'pm_card_visa')).toBe(200);
    const paid = await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(paid.json()).toMatchObject({ status: 'succeeded' });
    expect(await planOf(user.id)).toBe(3);

    const off = await call(admin, 'PATCH', 'admin/module-settings', {
      enabled_gateways: ['manual'],
    });
    expect(off.statusCode, off.body).toBe(200);
    const other = await t.user();
    const again = await call(
      other,
      'POST',
      `subscription/users/${other.id}?plan_id=3&type=monthly&pay_type=card`,
    );
    expect(again.statusCode).toBe(409);
  });
});
