import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, WebhookSignatureError, type Gateway } from '../../features/payments/gateway';
import { createPaypalGateway } from '../../features/payments/serverPaypalGateway';
import { startFakePaypal, type FakePaypal, type PaypalObject } from '../fakes/paypal';

/**
 * The PayPal rail (features/payments/serverPaypalGateway.ts, our own client) against the local
 * fake of PayPal's REST API (tests/fakes/paypal.ts): the OAuth token cached and renewed, an
 * order approved by the buyer then captured, a declined capture, a saved PayPal account
 * charged without the buyer, a timeout, a 5xx, replayed request ids counted by the fake's
 * captures, refunds, webhooks verified by PayPal's call, and amounts as PayPal's decimals.
 */

let fake: FakePaypal;
let gateway: Gateway;
let keys = 0;
const key = () => `inv_pp_att_${++keys}_${Date.now()}`;

const gatewayWith = (timeoutMs = 2000, clientSecret = fake.clientSecret) =>
  createPaypalGateway({
    baseUrl: fake.url,
    clientId: fake.clientId,
    clientSecret,
    webhookId: fake.webhookId,
    returnUrl: 'https://panel.example/paypal/return',
    cancelUrl: 'https://panel.example/paypal/cancel',
    timeoutMs,
  });

const charge = (
  more: Partial<{
    amountMinor: number;
    currency: string;
    paymentMethodRef: string;
    idempotencyKey: string;
  }> = {},
  on: Gateway = gateway,
) =>
  on.charge({
    customerRef: 'sd7',
    amountMinor: 1250,
    currency: 'USD',
    invoiceId: 'inv_9',
    offSession: false,
    idempotencyKey: key(),
    ...more,
  });

async function buyerApproves(orderId: string) {
  const response = await fetch(`${fake.url}/_fake/orders/${orderId}/approve`, { method: 'POST' });
  expect(response.status).toBe(200);
}

const lastEvent = (type: string) =>
  fake.events.findLast((e) => e.event_type === type) as PaypalObject;

beforeAll(async () => {
  fake = await startFakePaypal();
  gateway = gatewayWith();
});
afterAll(() => fake.close());

describe('the PayPal client', () => {
  it('signs in once for many calls, parallel ones included', async () => {
    const fresh = gatewayWith();
    const before = fake.tokensIssued();
    const { gatewayPaymentId } = await charge({}, fresh);
    await Promise.all([1, 2, 3, 4].map(() => fresh.retrieve({ gatewayPaymentId })));
    expect(fake.tokensIssued()).toBe(before + 1);
  });

  it('fetches a new token when the old one ends, and once more when PayPal refuses it', async () => {
    const fresh = gatewayWith();
    fake.tokenLifetimeSeconds = 60; // within the client's margin: never reused
    const before = fake.tokensIssued();
    const { gatewayPaymentId } = await charge({}, fresh);
    await fresh.retrieve({ gatewayPaymentId });
    expect(fake.tokensIssued()).toBe(before + 2);
    fake.tokenLifetimeSeconds = 32400;
    await fresh.retrieve({ gatewayPaymentId });
    fake.revokeTokens();
    expect(await fresh.retrieve({ gatewayPaymentId })).toMatchObject({ status: 'requires_action' });
    expect(fake.tokensIssued()).toBe(before + 4);
  });

  it('a wrong secret is refused in words', async () => {
    const refused = gatewayWith(2000, 'wrong');
    await expect(refused.retrieve({ gatewayPaymentId: 'X' })).rejects.toThrow(
      'PayPal refused the client id and secret in the settings.',
    );
  });
});

describe('the PayPal rail against the fake PayPal', () => {
  it('the buyer approves at PayPal, the panel captures: one capture, however often completed', async () => {
    const before = fake.captureCount();
    const first = await charge();
    expect(first).toEqual({
      status: 'requires_action',
      gatewayPaymentId: expect.any(String) as string,
      amountMinor: 1250,
      currency: 'USD',
      approveUrl: fake.approveUrl(first.gatewayPaymentId),
      message: 'Approve the payment at PayPal.',
    });
    const order = fake.orders.get(first.gatewayPaymentId)!;
    expect(order.purchase_units).toMatchObject([
      { amount: { currency_code: 'USD', value: '12.50' }, custom_id: 'inv_9' },
    ]);
    // Completing before the buyer approved takes nothing.
    expect(
      await gateway.complete({ gatewayPaymentId: first.gatewayPaymentId, idempotencyKey: key() }),
    ).toMatchObject({
      status: 'requires_action',
    });
    await buyerApproves(first.gatewayPaymentId);
    expect(await gateway.retrieve({ gatewayPaymentId: first.gatewayPaymentId })).toMatchObject({
      status: 'processing',
    });
    const captureKey = key();
    const done = await gateway.complete({
      gatewayPaymentId: first.gatewayPaymentId,
      idempotencyKey: captureKey,
    });
    expect(done).toMatchObject({ status: 'succeeded', amountMinor: 1250 });
    expect(
      await gateway.complete({
        gatewayPaymentId: first.gatewayPaymentId,
        idempotencyKey: captureKey,
      }),
    ).toMatchObject({
      status: 'succeeded',
    });
    expect(
      await gateway.complete({ gatewayPaymentId: first.gatewayPaymentId, idempotencyKey: key() }),
    ).toMatchObject({
      status: 'succeeded',
    });
    expect(fake.captureCount()).toBe(before + 1);
  });

  it('a declined capture fails in words and takes nothing', async () => {
    const before = fake.captureCount();
    const { gatewayPaymentId } = await charge();
    await buyerApproves(gatewayPaymentId);
    fake.declineCaptures = true;
    try {
      expect(await gateway.complete({ gatewayPaymentId, idempotencyKey: key() })).toEqual({
        status: 'failed',
        gatewayPaymentId,
        errorCode: 'card_declined',
        declineCode: 'INSTRUMENT_DECLINED',
        message:
          'PayPal declined the payment. Choose another way to pay in PayPal, or another payment method.',
      });
    } finally {
      fake.declineCaptures = false;
    }
    expect(fake.captureCount()).toBe(before);
  });

  it('saves a PayPal account, charges it without the buyer, and forgets it', async () => {
    const { customerRef } = await gateway.createCustomer({
      userId: '7',
      email: 'a@example.com',
      name: 'Ann',
    });
    const setup = await gateway.createSetup({ customerRef });
    expect(setup.approveUrl).toContain(setup.setupRef);
    await expect(
      gateway.completeSetup({ customerRef, setupRef: setup.setupRef }),
    ).rejects.toBeInstanceOf(GatewayError);
    await fetch(`${fake.url}/_fake/setup-tokens/${setup.setupRef}/approve`, { method: 'POST' });
    const saved = await gateway.completeSetup({ customerRef, setupRef: setup.setupRef });
    expect(saved).toEqual({
      customerRef,
      method: {
        ref: expect.any(String) as string,
        brand: 'paypal',
        last4: '',
        expMonth: null,
        expYear: null,
        isPaypal: true,
        email: 'buyer@example.com',
      },
    });
    expect(await gateway.listPaymentMethods({ customerRef })).toEqual([saved.method]);

    const before = fake.captureCount();
    const idempotencyKey = key();
    const renewal = await charge({ paymentMethodRef: saved.method.ref, idempotencyKey });
    expect(renewal).toMatchObject({ status: 'succeeded', amountMinor: 1250 });
    const again = await charge({ paymentMethodRef: saved.method.ref, idempotencyKey });
    expect(again.gatewayPaymentId).toBe(renewal.gatewayPaymentId);
    expect(fake.captureCount()).toBe(before + 1);

    await gateway.detach({ ref: saved.method.ref });
    expect(await gateway.listPaymentMethods({ customerRef })).toEqual([]);
  });

  it('a timeout is retryable, and the retry with the same key finds the same order', async () => {
    const impatient = gatewayWith(300);
    const orders = fake.orders.size;
    const idempotencyKey = key();
    fake.failNext('slow', 1000);
    expect(await charge({ idempotencyKey }, impatient)).toMatchObject({
      status: 'failed',
      errorCode: 'gateway_timeout',
      retryable: true,
      message:
        'PayPal did not answer in time. Trying again is safe: the same attempt is never charged twice.',
    });
    const retried = await charge({ idempotencyKey }, impatient);
    expect(retried.status).toBe('requires_action');
    expect(fake.orders.size).toBe(orders + 1);
  });

  it('a 5xx at PayPal is a retryable gateway error', async () => {
    const orders = fake.orders.size;
    fake.failNext('error500');
    expect(await charge()).toMatchObject({
      status: 'failed',
      errorCode: 'gateway_error',
      retryable: true,
      message: 'PayPal had a problem (500). Try again in a few minutes.',
    });
    expect(fake.orders.size).toBe(orders);
  });

  it('a retried attempt (same PayPal-Request-Id) makes one order', async () => {
    const orders = fake.orders.size;
    const idempotencyKey = key();
    const first = await charge({ idempotencyKey });
    expect(await charge({ idempotencyKey })).toEqual(first);
    expect(fake.orders.size).toBe(orders + 1);
  });

  it('refunds part of a capture; more than is left is refused in words', async () => {
    const { gatewayPaymentId } = await charge();
    await buyerApproves(gatewayPaymentId);
    await gateway.complete({ gatewayPaymentId, idempotencyKey: key() });
    expect(
      await gateway.refund({ gatewayPaymentId, amountMinor: 250, idempotencyKey: key() }),
    ).toMatchObject({
      status: 'succeeded',
    });
    const tooMuch = gateway.refund({ gatewayPaymentId, amountMinor: 1001, idempotencyKey: key() });
    await expect(tooMuch).rejects.toThrow(/less than or equal to the capture amount/);
    const event = lastEvent('PAYMENT.CAPTURE.REFUNDED');
    const { rawBody, headers } = fake.webhookDelivery(event);
    expect(await gateway.parseWebhook(rawBody, headers)).toMatchObject({
      type: 'payment.refunded',
      invoiceId: 'inv_9',
    });
  });
});

describe('PayPal amounts: minor units to PayPal decimals by currency', () => {
  it.each([
    ['USD', 1250, '12.50'],
    ['JPY', 1250, '1250'],
    ['USD', 5, '0.05'],
    ['HUF', 100000, '1000'],
  ])('%s %i is sent as "%s"', async (currency, amountMinor, value) => {
    const { gatewayPaymentId, amountMinor: read } = await charge({ currency, amountMinor });
    expect(fake.orders.get(gatewayPaymentId)?.purchase_units).toMatchObject([
      { amount: { currency_code: currency, value } },
    ]);
    expect(read).toBe(amountMinor);
  });

  it('HUF with cents, which PayPal cannot take, is refused before any call', async () => {
    const calls = fake.calls.length;
    expect(await charge({ currency: 'HUF', amountMinor: 100050 })).toMatchObject({
      status: 'failed',
      errorCode: 'invalid_request',
      retryable: false,
      message: 'PayPal takes HUF in whole units only (1000.50 HUF).',
    });
    expect(fake.calls.length).toBe(calls);
  });

  it('a currency PayPal does not take (BHD, three decimals) is refused in words', async () => {
    expect(await charge({ currency: 'BHD', amountMinor: 1250 })).toMatchObject({
      status: 'failed',
      errorCode: 'invalid_request',
      message: 'PayPal refused the request: Currency code is not currently supported.',
    });
  });
});

describe('PayPal webhooks', () => {
  let approved: PaypalObject;
  let orderId: string;
  beforeAll(async () => {
    ({ gatewayPaymentId: orderId } = await charge());
    await buyerApproves(orderId);
    approved = lastEvent('CHECKOUT.ORDER.APPROVED');
  });

  it('a delivery PayPal confirms reads as a trigger naming the order to fetch again', async () => {
    const { rawBody, headers } = fake.webhookDelivery(approved);
    expect(await gateway.parseWebhook(rawBody, headers)).toEqual({
      gateway: 'paypal',
      eventId: approved.id,
      type: 'payment.approved',
      gatewayType: 'CHECKOUT.ORDER.APPROVED',
      gatewayPaymentId: orderId,
      objectRef: orderId,
      invoiceId: 'inv_9',
      created: expect.any(Number) as number,
    });
  });

  it('a capture event names its order; the same delivery twice reads the same event id', async () => {
    await gateway.complete({ gatewayPaymentId: orderId, idempotencyKey: key() });
    const { rawBody, headers } = fake.webhookDelivery(lastEvent('PAYMENT.CAPTURE.COMPLETED'));
    const first = await gateway.parseWebhook(rawBody, headers);
    expect(first).toMatchObject({
      type: 'payment.succeeded',
      gatewayPaymentId: orderId,
      invoiceId: 'inv_9',
    });
    expect((await gateway.parseWebhook(rawBody, headers)).eventId).toBe(first.eventId);
  });

  it('a changed body, another webhook, or missing headers is refused', async () => {
    const { rawBody, headers } = fake.webhookDelivery(approved);
    const tampered = Buffer.from(rawBody.toString().replace('inv_9', 'inv_1'));
    await expect(gateway.parseWebhook(tampered, headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    const other = fake.webhookDelivery(approved, { webhookId: 'WH-OTHER' });
    await expect(gateway.parseWebhook(other.rawBody, other.headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(gateway.parseWebhook(rawBody, {})).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(gateway.parseWebhook(Buffer.from('not json'), headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });
});
