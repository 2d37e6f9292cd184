import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, WebhookSignatureError, type Gateway } from '../../features/payments/gateway';
import {
  STRIPE_API_VERSION,
  createStripeGateway,
} from '../../features/payments/serverStripeGateway';
import { startFakeStripe, type FakeObject, type FakeStripe } from '../fakes/stripe';
import { waitFor } from '../waitFor';

/**
 * The Stripe rail (features/payments/serverStripeGateway.ts) through the official SDK against
 * the local fake of Stripe's API (tests/fakes/stripe.ts): saving a card, charging it on and off
 * session, declines, 3-D Secure, a timeout, a 5xx, idempotent retries counted by the fake's
 * charges, refunds and signed webhooks.
 */

let fake: FakeStripe;
let gateway: Gateway;
/** Stands for Stripe.js in the browser: it confirms with the card the buyer typed. */
let browser: Stripe;
let customerRef: string;
let keyCount = 0;
const key = () => `inv_test_att_${++keyCount}_${Date.now()}`;

const gatewayWith = (extra: { timeoutMs?: number; maxNetworkRetries?: number } = {}) =>
  createStripeGateway({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    ...extra,
  });

const charge = (
  paymentMethodRef: string | undefined,
  more: Partial<{ amountMinor: number; offSession: boolean; idempotencyKey: string }> = {},
) =>
  gateway.charge({
    customerRef,
    paymentMethodRef,
    amountMinor: 1200,
    currency: 'USD',
    invoiceId: 'inv_42',
    offSession: true,
    idempotencyKey: key(),
    ...more,
  });

async function authenticate(paymentIntent: string, result: 'pass' | 'fail' = 'pass') {
  const response = await fetch(
    `${fake.url}/_fake/payment_intents/${paymentIntent}/authenticate?result=${result}`,
    { method: 'POST' },
  );
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  fake = await startFakeStripe();
  gateway = gatewayWith();
  browser = new Stripe(fake.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  ({ customerRef } = await gateway.createCustomer({
    userId: '7',
    email: 'ann@example.com',
    name: 'Ann',
  }));
});
afterAll(() => fake.close());

describe('the Stripe rail against the fake Stripe', () => {
  it('pins the API version on every call and makes one customer per user on a repeat', async () => {
    expect(customerRef).toMatch(/^cus_/);
    const again = await gateway.createCustomer({
      userId: '7',
      email: 'ann@example.com',
      name: 'Ann',
    });
    expect(again.customerRef).toBe(customerRef);
  });

  it('a wrong secret key is refused in words', async () => {
    const refused = createStripeGateway({
      secretKey: 'sk_test_wrong',
      webhookSecret: fake.webhookSecret,
      host: fake.host,
      port: fake.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await expect(
      refused.createCustomer({ userId: '8', email: 'b@example.com', name: 'B' }),
    ).rejects.toThrow('Stripe refused the secret key in the settings.');
  });

  it('saves a card through a setup the browser confirms, lists it, and detaches it', async () => {
    const setup = await gateway.createSetup({ customerRef });
    expect(setup.setupRef).toMatch(/^seti_/);
    expect(setup.clientSecret).toMatch(/^seti_.+_secret_/);
    await expect(gateway.completeSetup({ customerRef, setupRef: setup.setupRef })).rejects.toThrow(
      'The card has not been saved yet: finish the card form first.',
    );
    await browser.setupIntents.confirm(setup.setupRef, { payment_method: 'pm_card_visa' });
    const saved = await gateway.completeSetup({ customerRef, setupRef: setup.setupRef });
    expect(saved).toMatchObject({ customerRef, method: { brand: 'visa', last4: '4242' } });

    const methods = await gateway.listPaymentMethods({ customerRef });
    expect(methods).toEqual([
      {
        ref: expect.stringMatching(/^pm_/) as string,
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: expect.any(Number) as number,
        isPaypal: false,
      },
    ]);
    expect(methods[0]?.ref).toBe(saved.method.ref);
    await gateway.detach({ ref: saved.method.ref });
    expect(await gateway.listPaymentMethods({ customerRef })).toEqual([]);
  });

  it('charges a saved card off session: succeeded, one charge, the invoice on the payment', async () => {
    const before = fake.chargeCount();
    const result = await charge('pm_card_visa');
    expect(result).toMatchObject({ status: 'succeeded', amountMinor: 1200, currency: 'USD' });
    expect(fake.chargeCount()).toBe(before + 1);
    expect(fake.paymentIntents.get(result.gatewayPaymentId)?.metadata).toEqual({
      invoice_id: 'inv_42',
    });
    expect(await gateway.retrieve({ gatewayPaymentId: result.gatewayPaymentId })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('a declined card fails in words, with the bank reason, and charges nothing', async () => {
    const before = fake.chargeCount();
    expect(await charge('pm_card_chargeDeclined')).toMatchObject({
      status: 'failed',
      errorCode: 'card_declined',
      declineCode: 'generic_decline',
      message: 'The card was declined by its bank.',
      gatewayPaymentId: expect.stringMatching(/^pi_/) as string,
    });
    expect(await charge('pm_card_chargeDeclinedInsufficientFunds')).toMatchObject({
      status: 'failed',
      declineCode: 'insufficient_funds',
      message: 'The card has insufficient funds.',
    });
    expect(fake.chargeCount()).toBe(before);
  });

  it('3-D Secure on the page: requires_action with the client secret, paid once the buyer passes', async () => {
    const before = fake.chargeCount();
    const first = await charge('pm_card_authenticationRequired', { offSession: false });
    expect(first).toMatchObject({
      status: 'requires_action',
      clientSecret: expect.stringMatching(/_secret_/) as string,
      message: 'Your bank asks you to confirm this payment (3-D Secure).',
    });
    expect(fake.chargeCount()).toBe(before);
    await authenticate(first.gatewayPaymentId);
    const done = await gateway.complete({
      gatewayPaymentId: first.gatewayPaymentId,
      idempotencyKey: key(),
    });
    expect(done.status).toBe('succeeded');
    expect(fake.chargeCount()).toBe(before + 1);
  });

  it('3-D Secure on a renewal (off session): the buyer is asked back, a failed challenge fails', async () => {
    const renewal = await charge('pm_card_authenticationRequired');
    expect(renewal).toMatchObject({
      status: 'requires_action',
      clientSecret: expect.any(String) as string,
    });
    await authenticate(renewal.gatewayPaymentId, 'fail');
    expect(await gateway.retrieve({ gatewayPaymentId: renewal.gatewayPaymentId })).toMatchObject({
      status: 'failed',
      errorCode: 'card_declined',
      message: expect.stringContaining('unable to authenticate') as string,
    });
  });

  it('a first payment without a saved card asks the page for one', async () => {
    expect(await charge(undefined, { offSession: false })).toMatchObject({
      status: 'requires_action',
      clientSecret: expect.stringMatching(/^pi_/) as string,
      message: 'Enter a card to pay.',
    });
  });

  it('a timeout is retryable, and the retry with the same key answers the first charge', async () => {
    fake.timeoutDelayMs = 1000;
    const impatient = gatewayWith({ timeoutMs: 300 });
    const before = fake.chargeCount();
    const idempotencyKey = key();
    const timedOut = await impatient.charge({
      customerRef,
      paymentMethodRef: 'pm_fake_timeout',
      amountMinor: 900,
      currency: 'USD',
      invoiceId: 'inv_43',
      offSession: true,
      idempotencyKey,
    });
    expect(timedOut).toMatchObject({
      status: 'failed',
      errorCode: 'gateway_timeout',
      retryable: true,
      message: expect.stringContaining('did not answer in time') as string,
    });
    // Stripe charged while the panel stopped waiting: the same key must not charge again.
    expect(fake.chargeCount()).toBe(before + 1);
    await waitFor('the slow request to finish at Stripe', () => fake.inFlight() === 0);
    const retried = await impatient.charge({
      customerRef,
      paymentMethodRef: 'pm_fake_timeout',
      amountMinor: 900,
      currency: 'USD',
      invoiceId: 'inv_43',
      offSession: true,
      idempotencyKey,
    });
    expect(retried.status).toBe('succeeded');
    expect(fake.chargeCount()).toBe(before + 1);
  });

  it('a 5xx at Stripe is a retryable gateway error that charged nothing', async () => {
    const before = fake.chargeCount();
    expect(await charge('pm_fake_500')).toMatchObject({
      status: 'failed',
      errorCode: 'gateway_error',
      retryable: true,
      message: 'Stripe had a problem (500). Try again in a few minutes.',
    });
    expect(fake.chargeCount()).toBe(before);
  });

  it('a retried attempt (same key) never charges twice; the same key for another amount is refused', async () => {
    const before = fake.chargeCount();
    const idempotencyKey = key();
    const first = await charge('pm_card_visa', { idempotencyKey });
    const again = await charge('pm_card_visa', { idempotencyKey });
    expect(again).toEqual(first);
    expect(fake.chargeCount()).toBe(before + 1);
    expect(await charge('pm_card_visa', { idempotencyKey, amountMinor: 1300 })).toMatchObject({
      status: 'failed',
      errorCode: 'invalid_request',
      retryable: false,
    });
    expect(fake.chargeCount()).toBe(before + 1);
  });

  it('two jobs charging the same attempt at once: one charge, the other told to try again', async () => {
    fake.timeoutDelayMs = 600;
    const before = fake.chargeCount();
    const idempotencyKey = key();
    const first = charge('pm_fake_timeout', { idempotencyKey });
    await waitFor('the first request to be running at Stripe', () => fake.inFlight() === 1);
    const b = await charge('pm_fake_timeout', { idempotencyKey });
    const a = await first;
    expect(a.status).toBe('succeeded');
    expect(b).toMatchObject({
      status: 'failed',
      errorCode: 'gateway_error',
      retryable: true,
      message: expect.stringContaining('already in progress') as string,
    });
    expect(fake.chargeCount()).toBe(before + 1);
    expect(await charge('pm_fake_timeout', { idempotencyKey })).toEqual(a);
    expect(fake.chargeCount()).toBe(before + 1);
  });

  it('the SDK retrying by itself after a 5xx keeps the key: still one answer, nothing charged', async () => {
    const patient = gatewayWith({ maxNetworkRetries: 1 });
    const before = fake.chargeCount();
    const calls = fake.calls.length;
    const result = await patient.charge({
      customerRef,
      paymentMethodRef: 'pm_fake_500',
      amountMinor: 500,
      currency: 'USD',
      invoiceId: 'inv_44',
      offSession: true,
      idempotencyKey: key(),
    });
    expect(result.errorCode).toBe('gateway_error');
    expect(fake.calls.slice(calls).filter((c) => c === 'POST /v1/payment_intents')).toHaveLength(2);
    expect(fake.chargeCount()).toBe(before);
  });

  it('refunds part then the rest; more than was paid is refused in words', async () => {
    const paid = await charge('pm_card_visa');
    const part = await gateway.refund({
      gatewayPaymentId: paid.gatewayPaymentId,
      amountMinor: 200,
      idempotencyKey: key(),
    });
    expect(part).toMatchObject({
      status: 'succeeded',
      refundRef: expect.stringMatching(/^re_/) as string,
    });
    const tooMuch = gateway.refund({
      gatewayPaymentId: paid.gatewayPaymentId,
      amountMinor: 1001,
      idempotencyKey: key(),
    });
    await expect(tooMuch).rejects.toBeInstanceOf(GatewayError);
    await expect(tooMuch).rejects.toThrow(/greater than unrefunded amount/);
    await gateway.refund({
      gatewayPaymentId: paid.gatewayPaymentId,
      amountMinor: 1000,
      idempotencyKey: key(),
    });
    const event = fake.events.findLast((e) => e.type === 'charge.refunded') as FakeObject;
    const { rawBody, headers } = fake.webhookDelivery(event);
    expect(await gateway.parseWebhook(rawBody, headers)).toMatchObject({
      type: 'payment.refunded',
      gatewayPaymentId: paid.gatewayPaymentId,
      invoiceId: 'inv_42',
    });
  });
});

describe('Stripe webhooks', () => {
  let event: FakeObject;
  let paymentIntent: string;
  beforeAll(async () => {
    ({ gatewayPaymentId: paymentIntent } = await charge('pm_card_visa'));
    event = fake.eventFor('payment_intent.succeeded', paymentIntent)!;
  });

  it('a signed event reads as a trigger naming the payment to fetch again', async () => {
    const { rawBody, headers } = fake.webhookDelivery(event);
    expect(await gateway.parseWebhook(rawBody, headers)).toEqual({
      gateway: 'stripe',
      eventId: event.id,
      type: 'payment.succeeded',
      gatewayType: 'payment_intent.succeeded',
      gatewayPaymentId: paymentIntent,
      objectRef: paymentIntent,
      invoiceId: 'inv_42',
      created: event.created,
    });
  });

  it('the same delivery twice reads the same event id (the panel stores it once)', async () => {
    const delivery = fake.webhookDelivery(event);
    const first = await gateway.parseWebhook(delivery.rawBody, delivery.headers);
    const second = await gateway.parseWebhook(delivery.rawBody, delivery.headers);
    expect(second.eventId).toBe(first.eventId);
  });

  it('a changed body, another secret, an old timestamp or no signature is refused', async () => {
    const { rawBody, headers } = fake.webhookDelivery(event);
    const tampered = Buffer.from(rawBody.toString().replace('"succeeded"', '"canceled"'));
    await expect(gateway.parseWebhook(tampered, headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    const forged = fake.webhookDelivery(event, { secret: 'whsec_other' });
    await expect(gateway.parseWebhook(forged.rawBody, forged.headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    const old = fake.webhookDelivery(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    await expect(gateway.parseWebhook(old.rawBody, old.headers)).rejects.toThrow(/tolerance/);
    await expect(gateway.parseWebhook(rawBody, {})).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('re-serialised JSON (a parsed body sent on) no longer matches: the raw bytes are needed', async () => {
    const { rawBody, headers } = fake.webhookDelivery(event);
    const reparsed = Buffer.from(JSON.stringify(JSON.parse(rawBody.toString())));
    await expect(gateway.parseWebhook(reparsed, headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });
});
