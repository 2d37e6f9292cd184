import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  collectPayment,
  defaultMethodOf,
  availableGateways,
  retrievePayment,
  refundPayment,
} from '../../features/payment-methods/serverApi';
import { useGatewayEnvironment } from '../../features/payment-methods/serverSettings';
import { startFakePaypal, type FakePaypal } from '../fakes/paypal';
import { startFakeStripe, type FakeObject, type FakeStripe } from '../fakes/stripe';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Saved payment methods, webhooks and collection against the local fakes of Stripe and PayPal
 * (started on loopback here), on the dialect of this run.
 */
let t: TestApp;
let stripe: FakeStripe;
let paypal: FakePaypal;
let user: TestUser;
let other: TestUser;

const env = () => ({
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_URL: stripe.url,
  PAYPAL_CLIENT_ID: paypal.clientId,
  PAYPAL_CLIENT_SECRET: paypal.clientSecret,
  PAYPAL_WEBHOOK_ID: paypal.webhookId,
  PAYPAL_API_URL: paypal.url,
});

beforeAll(async () => {
  [stripe, paypal, t] = await Promise.all([startFakeStripe(), startFakePaypal(), buildTestApp()]);
  useGatewayEnvironment(t.app, env());
  [user, other] = await Promise.all([t.user(), t.user()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), stripe?.close(), paypal?.close()]);
});

const base = (uid: number) => `/api/v1/payment-methods/users/${uid}`;

/** The buyer's browser confirming a SetupIntent with Stripe.js (the fake's control route). */
async function confirmSetup(clientSecret: string, pm: string) {
  const id = clientSecret.split('_secret_')[0];
  const res = await fetch(`${stripe.url}/_fake/setup_intents/${id}/confirm`, {
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

async function addCard(u: TestUser, pm: string) {
  const started = await t.call('POST', base(u.id), { token: u.token, body: { gateway: 'stripe' } });
  expect(started.statusCode, started.body).toBe(201);
  const { client_secret, setup_ref } = started.json() as {
    client_secret: string;
    setup_ref: string;
  };
  expect(await confirmSetup(client_secret, pm)).toBe(200);
  const done = await t.call('POST', `/api/v1/payment-methods/complete/users/${u.id}`, {
    token: u.token,
    body: { setup_ref },
  });
  expect(done.statusCode, done.body).toBe(201);
  return done.json() as { id: number; brand: string; last4: string; is_default: boolean };
}

/** `payment.settled` as the features subscribed to it see it. */
function settledSpy() {
  const emit = vi.spyOn(t.app.events, 'emit');
  return {
    payloads: () =>
      emit.mock.calls.filter(([name]) => name === 'payment.settled').map(([, p]) => p as Settled),
    restore: () => emit.mockRestore(),
  };
}
interface Settled {
  gateway: string;
  gatewayPaymentId: string;
  invoiceId: number | null;
  result: { status: string; message?: string };
}

describe('without keys', () => {
  it('says the rails are not set up, and collect says so in words', async () => {
    useGatewayEnvironment(t.app, {});
    try {
      const res = await t.call('POST', base(user.id), {
        token: user.token,
        body: { gateway: 'stripe' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/Card payments are not set up on this panel/);
      const pp = await t.call('POST', base(user.id), {
        token: user.token,
        body: { gateway: 'paypal' },
      });
      expect(pp.json().message).toMatch(/PayPal payments are not set up on this panel/);
      expect(await availableGateways(t.app)).toEqual([]);
      const list = await t.call('GET', base(user.id), { token: user.token });
      expect(list.json()).toMatchObject({ data: [], total: 0, gateways: [] });
      const result = await collectPayment(t.app, {
        userId: user.id,
        invoiceId: 1,
        amountMinor: 500,
        currency: 'USD',
        gateway: 'stripe',
        offSession: true,
        idempotencyKey: 'inv_1_att_1',
        description: 'x',
      });
      expect(result).toMatchObject({ status: 'failed', message: /not set up/ });
    } finally {
      useGatewayEnvironment(t.app, env());
    }
    expect(await availableGateways(t.app)).toEqual(['stripe', 'paypal']);
  });
});

describe('cards', () => {
  it('adds a card through the SetupIntent the browser confirms, and believes only Stripe', async () => {
    const started = await t.call('POST', base(user.id), {
      token: user.token,
      body: { gateway: 'stripe' },
    });
    expect(started.statusCode).toBe(201);
    const setup = started.json() as { setup_ref: string; client_secret: string };
    expect(started.json()).toMatchObject({
      gateway: 'stripe',
      publishable_key: stripe.publishableKey,
      approve_url: null,
    });
    expect(setup.client_secret).toMatch(/^seti_.+_secret_/);
    // Before the browser confirmed: Stripe says nothing is saved.
    const early = await t.call('POST', `/api/v1/payment-methods/complete/users/${user.id}`, {
      token: user.token,
      body: { setup_ref: setup.setup_ref },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/not been saved yet/);
    // Another account cannot finish this user's setup.
    const stranger = await t.call('POST', `/api/v1/payment-methods/complete/users/${other.id}`, {
      token: other.token,
      body: { setup_ref: setup.setup_ref },
    });
    expect(stranger.statusCode).toBe(404);
    expect(await confirmSetup(setup.client_secret, 'pm_card_visa')).toBe(200);
    const done = await t.call('POST', `/api/v1/payment-methods/complete/users/${user.id}`, {
      token: user.token,
      body: { setup_ref: setup.setup_ref },
    });
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({
      gateway: 'stripe',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      is_paypal: false,
      is_default: true,
    });
    // Finished again (the browser and Stripe's webhook both may): the same method.
    const again = await t.call('POST', `/api/v1/payment-methods/complete/users/${user.id}`, {
      token: user.token,
      body: { setup_ref: setup.setup_ref },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(done.json().id);
    // Stripe's own event about it changes nothing either.
    const event = stripe.eventFor('setup_intent.succeeded', setup.setup_ref)!;
    const { rawBody, headers } = stripe.webhookDelivery(event);
    const hook = await t.call('POST', '/api/v1/webhooks/stripe', {
      headers,
      body: rawBody.toString(),
    });
    expect(hook.json()).toEqual({ received: true, duplicate: false });
    const list = await t.call('GET', base(user.id), { token: user.token });
    expect(list.json().total).toBe(1);
  });

  it('saves a card from the webhook when the browser never came back', async () => {
    const u = await t.user();
    const started = await t.call('POST', base(u.id), {
      token: u.token,
      body: { gateway: 'stripe' },
    });
    const { client_secret, setup_ref } = started.json() as {
      client_secret: string;
      setup_ref: string;
    };
    expect(await confirmSetup(client_secret, 'pm_card_mastercard')).toBe(200);
    const event = stripe.eventFor('setup_intent.succeeded', setup_ref)!;
    const { rawBody, headers } = stripe.webhookDelivery(event);
    const hook = await t.call('POST', '/api/v1/webhooks/stripe', {
      headers,
      body: rawBody.toString(),
    });
    expect(hook.statusCode).toBe(200);
    const list = await t.call('GET', base(u.id), { token: u.token });
    expect(list.json().data).toEqual([
      expect.objectContaining({ brand: 'mastercard', last4: '4444', is_default: true }),
    ]);
  });

  it('lists, moves the default, and removes at Stripe with the default moving on', async () => {
    const master = await addCard(user, 'pm_card_mastercard');
    expect(master).toMatchObject({ brand: 'mastercard', last4: '4444', is_default: false });
    let list = (await t.call('GET', base(user.id), { token: user.token })).json() as {
      data: { id: number; brand: string; is_default: boolean }[];
      total: number;
    };
    expect(list.data.map((m) => [m.brand, m.is_default])).toEqual([
      ['visa', true],
      ['mastercard', false],
    ]);
    const made = await t.call(
      'PATCH',
      `/api/v1/payment-methods/${master.id}/users/${user.id}?default=true`,
      {
        token: user.token,
      },
    );
    expect(made.statusCode).toBe(200);
    const def = await t.call('GET', `/api/v1/default-payment-method/users/${user.id}`, {
      token: user.token,
    });
    expect(def.json().data).toMatchObject({ id: master.id, brand: 'mastercard', is_default: true });
    expect(await defaultMethodOf(t.app, user.id)).toMatchObject({
      id: master.id,
      gateway: 'stripe',
      last4: '4444',
      is_paypal: false,
      email: null,
    });
    // Another account's method is absent for them.
    const foreign = await t.call(
      'DELETE',
      `/api/v1/payment-methods/${master.id}/users/${other.id}`,
      {
        token: other.token,
      },
    );
    expect(foreign.statusCode).toBe(404);
    const detachesBefore = stripe.calls.filter((c) => c.endsWith('/detach')).length;
    const removed = await t.call(
      'DELETE',
      `/api/v1/payment-methods/${master.id}/users/${user.id}`,
      {
        token: user.token,
      },
    );
    expect(removed.statusCode).toBe(200);
    expect(stripe.calls.filter((c) => c.endsWith('/detach')).length).toBe(detachesBefore + 1);
    list = (await t.call('GET', base(user.id), { token: user.token })).json() as typeof list;
    expect(list.data.map((m) => [m.brand, m.is_default])).toEqual([['visa', true]]);
  });
});

describe('PayPal', () => {
  it('saves a PayPal account after the buyer approved at PayPal', async () => {
    const started = await t.call('POST', base(user.id), {
      token: user.token,
      body: { gateway: 'paypal' },
    });
    expect(started.statusCode).toBe(201);
    const { setup_ref, approve_url } = started.json() as { setup_ref: string; approve_url: string };
    expect(approve_url).toContain(setup_ref);
    const early = await t.call('POST', `/api/v1/payment-methods/complete/users/${user.id}`, {
      token: user.token,
      body: { setup_ref },
    });
    expect(early.statusCode).toBe(409);
    await fetch(`${paypal.url}/_fake/setup-tokens/${setup_ref}/approve`, { method: 'POST' });
    const done = await t.call('POST', `/api/v1/payment-methods/complete/users/${user.id}`, {
      token: user.token,
      body: { setup_ref },
    });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({
      gateway: 'paypal',
      is_paypal: true,
      email: 'buyer@example.com',
      is_default: false,
    });
  });

  it('charges the saved PayPal account off-session (Vault), once per key', async () => {
    const input = {
      userId: user.id,
      invoiceId: 41,
      amountMinor: 1999,
      currency: 'USD',
      gateway: 'paypal' as const,
      offSession: true,
      idempotencyKey: 'inv_41_att_1',
      description: 'Pro, December',
    };
    const captures = paypal.captureCount();
    const first = await collectPayment(t.app, input);
    expect(first).toMatchObject({ status: 'succeeded', amountMinor: 1999, currency: 'USD' });
    const again = await collectPayment(t.app, input);
    expect(again.gatewayPaymentId).toBe(first.gatewayPaymentId);
    expect(paypal.captureCount()).toBe(captures + 1);
  });

  it('captures an approved order when the buyer returns, and raises payment.settled once', async () => {
    const spy = settledSpy();
    try {
      const started = await collectPayment(t.app, {
        userId: user.id,
        invoiceId: 42,
        amountMinor: 1000,
        currency: 'EUR',
        gateway: 'paypal',
        offSession: false,
        idempotencyKey: 'inv_42_att_1',
        description: 'Basic',
      });
      expect(started.status).toBe('requires_action');
      expect(started.approveUrl).toContain(started.gatewayPaymentId);
      await fetch(`${paypal.url}/_fake/orders/${started.gatewayPaymentId}/approve`, {
        method: 'POST',
      });
      const captures = paypal.captureCount();
      const back = await t.call(
        'GET',
        `/api/v1/paypal/return?token=${started.gatewayPaymentId}&PayerID=QYR5Z8XDVJNXQ`,
      );
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toBe('http://panel.test/subscription?paypal=succeeded');
      const twice = await t.call('GET', `/api/v1/paypal/return?token=${started.gatewayPaymentId}`);
      expect(twice.statusCode).toBe(302);
      expect(paypal.captureCount()).toBe(captures + 1);
      expect(spy.payloads()).toEqual([
        expect.objectContaining({
          gateway: 'paypal',
          gatewayPaymentId: started.gatewayPaymentId,
          invoiceId: 42,
          result: expect.objectContaining({ status: 'succeeded', amountMinor: 1000 }),
        }),
      ]);
      const unknown = await t.call('GET', '/api/v1/paypal/return?token=NOSUCHORDER1');
      expect(unknown.headers.location).toBe('http://panel.test/subscription?paypal=failed');
      const cancelled = await t.call('GET', '/api/v1/paypal/return?cancel=1');
      expect(cancelled.headers.location).toBe('http://panel.test/subscription?paypal=cancelled');
    } finally {
      spy.restore();
    }
  });

  it('takes a verified webhook as a trigger (captures the approved order), refuses a tampered one', async () => {
    const spy = settledSpy();
    try {
      const started = await collectPayment(t.app, {
        userId: user.id,
        invoiceId: 43,
        amountMinor: 700,
        currency: 'USD',
        gateway: 'paypal',
        offSession: false,
        idempotencyKey: 'inv_43_att_1',
        description: 'Basic',
      });
      await fetch(`${paypal.url}/_fake/orders/${started.gatewayPaymentId}/approve`, {
        method: 'POST',
      });
      const approved = paypal.events.findLast(
        (e) =>
          e.event_type === 'CHECKOUT.ORDER.APPROVED' &&
          (e.resource as { id: string }).id === started.gatewayPaymentId,
      )!;
      const { rawBody, headers } = paypal.webhookDelivery(approved);
      const tampered = Buffer.from(rawBody.toString().replace('APPROVED', 'COMPLETED'));
      const bad = await t.call('POST', '/api/v1/webhooks/paypal', {
        headers,
        body: tampered.toString(),
      });
      expect(bad.statusCode).toBe(400);
      const ok = await t.call('POST', '/api/v1/webhooks/paypal', {
        headers,
        body: rawBody.toString(),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ received: true, duplicate: false });
      const dup = await t.call('POST', '/api/v1/webhooks/paypal', {
        headers,
        body: rawBody.toString(),
      });
      expect(dup.json()).toEqual({ received: true, duplicate: true });
      expect(spy.payloads()).toEqual([
        expect.objectContaining({
          gateway: 'paypal',
          gatewayPaymentId: started.gatewayPaymentId,
          invoiceId: 43,
          result: expect.objectContaining({ status: 'succeeded' }),
        }),
      ]);
      expect(paypal.orders.get(started.gatewayPaymentId)?.status).toBe('COMPLETED');
    } finally {
      spy.restore();
    }
  });
});

describe('collectPayment on Stripe', () => {
  const charge = (u: TestUser, invoiceId: number, key: string, offSession = true) =>
    collectPayment(t.app, {
      userId: u.id,
      invoiceId,
      amountMinor: 1500,
      currency: 'USD',
      gateway: 'stripe',
      offSession,
      idempotencyKey: key,
      description: `Invoice ${invoiceId}`,
    });

  it('charges the default card off-session, and a retried key charges once', async () => {
    const before = stripe.chargeCount();
    const first = await charge(user, 50, 'inv_50_att_1');
    expect(first).toMatchObject({ status: 'succeeded', amountMinor: 1500, currency: 'USD' });
    const intent = stripe.paymentIntents.get(first.gatewayPaymentId)!;
    expect(intent).toMatchObject({
      metadata: { invoice_id: '50' },
      payment_method: expect.any(String),
    });
    const retried = await charge(user, 50, 'inv_50_att_1');
    expect(retried.gatewayPaymentId).toBe(first.gatewayPaymentId);
    expect(stripe.chargeCount()).toBe(before + 1);
    expect(await retrievePayment(t.app, 'stripe', first.gatewayPaymentId)).toMatchObject({
      status: 'succeeded',
    });
    expect(
      await refundPayment(t.app, {
        gateway: 'stripe',
        gatewayPaymentId: first.gatewayPaymentId,
        amountMinor: 500,
        idempotencyKey: 'ref_50_1',
      }),
    ).toMatchObject({ status: 'succeeded', refundRef: expect.stringMatching(/^re_/) });
  });

  it('gives a decline as a failed result in words', async () => {
    const u = await t.user();
    await addCard(u, 'pm_card_chargeCustomerFail');
    const result = await charge(u, 51, 'inv_51_att_1');
    expect(result).toMatchObject({
      status: 'failed',
      errorCode: 'card_declined',
      message: expect.stringMatching(/declined/i),
    });
  });

  it('asks for 3-D Secure when the bank wants it (requires_action with the client secret)', async () => {
    const u = await t.user();
    await addCard(u, 'pm_card_authenticationRequired');
    const result = await charge(u, 52, 'inv_52_att_1');
    expect(result).toMatchObject({
      status: 'requires_action',
      clientSecret: expect.stringContaining('_secret_'),
    });
  });

  it('says so when no card is saved', async () => {
    const u = await t.user();
    expect(await charge(u, 53, 'inv_53_att_1')).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/No card is saved/),
    });
  });

  it('starts an on-page payment and settles it from the webhook, believing the retrieve', async () => {
    const spy = settledSpy();
    try {
      const started = await charge(user, 54, 'inv_54_att_1', false);
      expect(started).toMatchObject({
        status: 'requires_action',
        clientSecret: expect.any(String),
      });
      const id = started.gatewayPaymentId;
      // A delivery that lies: signed, says succeeded, while Stripe has it unpaid.
      const lie: FakeObject = {
        id: 'evt_lie_1',
        object: 'event',
        type: 'payment_intent.succeeded',
        created: Math.floor(Date.now() / 1000),
        api_version: '2026-10-28.endive',
        livemode: false,
        pending_webhooks: 1,
        data: { object: { ...stripe.paymentIntents.get(id), status: 'succeeded' } },
      };
      const lying = stripe.webhookDelivery(lie);
      const res = await t.call('POST', '/api/v1/webhooks/stripe', {
        headers: lying.headers,
        body: lying.rawBody.toString(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(spy.payloads().at(-1)).toMatchObject({
        gateway: 'stripe',
        gatewayPaymentId: id,
        invoiceId: 54,
        result: { status: 'requires_action' },
      });
      // The buyer confirms in the browser; Stripe's real event arrives, twice.
      const confirm = await fetch(`${stripe.url}/_fake/payment_intents/${id}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          key: stripe.publishableKey,
          client_secret: started.clientSecret!,
          payment_method: 'pm_card_visa',
        }).toString(),
      });
      expect(confirm.status).toBe(200);
      const event = stripe.eventFor('payment_intent.succeeded', id)!;
      const delivery = stripe.webhookDelivery(event);
      for (let i = 0; i < 2; i++) {
        const r = await t.call('POST', '/api/v1/webhooks/stripe', {
          headers: delivery.headers,
          body: delivery.rawBody.toString(),
        });
        expect(r.statusCode).toBe(200);
        expect(r.json().duplicate).toBe(i === 1);
      }
      const settled = spy.payloads().filter((p) => p.result.status === 'succeeded');
      expect(settled).toEqual([expect.objectContaining({ gatewayPaymentId: id, invoiceId: 54 })]);
      const rows = await t.app.db
        .selectFrom('webhook_events')
        .selectAll()
        .where('event_id', '=', event.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.processed_at).not.toBeNull();
    } finally {
      spy.restore();
    }
  });

  it('refuses a tampered or unsigned webhook with 400', async () => {
    const event = stripe.events.at(-1)!;
    const { rawBody, headers } = stripe.webhookDelivery(event);
    const tampered = rawBody.toString().replace('"livemode": false', '"livemode": true');
    const bad = await t.call('POST', '/api/v1/webhooks/stripe', { headers, body: tampered });
    expect(bad.statusCode).toBe(400);
    const wrongSecret = stripe.webhookDelivery(event, { secret: 'whsec_other' });
    const bad2 = await t.call('POST', '/api/v1/webhooks/stripe', {
      headers: wrongSecret.headers,
      body: wrongSecret.rawBody.toString(),
    });
    expect(bad2.statusCode).toBe(400);
    const unsigned = await t.call('POST', '/api/v1/webhooks/stripe', {
      headers: { 'content-type': 'application/json' },
      body: rawBody.toString(),
    });
    expect(unsigned.statusCode).toBe(400);
  });

  it('forgets a card Stripe says was detached', async () => {
    const u = await t.user();
    const card = await addCard(u, 'pm_card_visa');
    const row = await t.app.db
      .selectFrom('payment_methods')
      .select('ref')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    // Detached at Stripe (the dashboard, say): the event makes the panel forget it.
    const detached = await fetch(`${stripe.url}/v1/payment_methods/${row.ref}/detach`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}` },
    });
    expect(detached.status).toBe(200);
    const event = stripe.eventFor('payment_method.detached', row.ref)!;
    const { rawBody, headers } = stripe.webhookDelivery(event);
    const res = await t.call('POST', '/api/v1/webhooks/stripe', {
      headers,
      body: rawBody.toString(),
    });
    expect(res.statusCode).toBe(200);
    const list = await t.call('GET', base(u.id), { token: u.token });
    expect(list.json().total).toBe(0);
  });
});

describe('Stripe.js', () => {
  it('is fetched from where the settings say', async () => {
    const res = await t.call('GET', '/api/v1/payment-methods/stripe.js');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://js.stripe.com/v3/');
    useGatewayEnvironment(t.app, { ...env(), STRIPE_JS_URL: `${stripe.url}/v3` });
    try {
      const local = await t.call('GET', '/api/v1/payment-methods/stripe.js');
      expect(local.headers.location).toBe(`${stripe.url}/v3`);
      const script = await fetch(`${stripe.url}/v3`);
      expect(await script.text()).toContain('window.Stripe = function');
    } finally {
      useGatewayEnvironment(t.app, env());
    }
  });
});
