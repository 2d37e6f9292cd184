import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSignatureError, type Gateway } from '../../features/payments/gateway';
import { createPaypalGateway } from '../../features/payments/serverPaypalGateway';
import { createStripeGateway } from '../../features/payments/serverStripeGateway';
import { keepRawJsonBodies } from '../../features/payments/serverWebhookBody';
import { startFakePaypal, type FakePaypal } from '../fakes/paypal';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';

/**
 * Webhooks delivered over HTTP by the fakes to a Fastify route shaped as the billing core's
 * will be (its own plugin with `keepRawJsonBodies`): the signature checks pass on the raw bytes
 * there, while a route behind Fastify's usual JSON parser could not check them at all.
 */

let stripeFake: FakeStripe;
let paypalFake: FakePaypal;
let app: FastifyInstance;
let base: string;
const seen: string[] = [];

function hookRoute(scope: FastifyInstance, path: string, gateway: Gateway) {
  scope.post(path, async (req, reply) => {
    try {
      const event = await gateway.parseWebhook(req.body as Buffer, req.headers);
      seen.push(`${event.gatewayType} ${event.gatewayPaymentId ?? ''}`);
      return { received: true };
    } catch (error) {
      if (error instanceof WebhookSignatureError)
        return reply.code(400).send({ error: error.message });
      throw error;
    }
  });
}

beforeAll(async () => {
  [stripeFake, paypalFake] = await Promise.all([startFakeStripe(), startFakePaypal()]);
  const stripe = createStripeGateway({
    secretKey: stripeFake.secretKey,
    webhookSecret: stripeFake.webhookSecret,
    host: stripeFake.host,
    port: stripeFake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  const paypal = createPaypalGateway({
    baseUrl: paypalFake.url,
    clientId: paypalFake.clientId,
    clientSecret: paypalFake.clientSecret,
    webhookId: paypalFake.webhookId,
    returnUrl: 'https://panel.example/return',
    cancelUrl: 'https://panel.example/cancel',
  });
  app = Fastify({ logger: false });
  await app.register(async (hooks) => {
    keepRawJsonBodies(hooks);
    hookRoute(hooks, '/hooks/stripe', stripe);
    hookRoute(hooks, '/hooks/paypal', paypal);
  });
  // Outside the plugin, the usual parser: what a webhook route must not sit behind.
  hookRoute(app, '/parsed/stripe', stripe);
  base = await app.listen({ host: '127.0.0.1', port: 0 });

  const { customerRef } = await stripe.createCustomer({
    userId: '1',
    email: 'a@example.com',
    name: 'A',
  });
  await stripe.charge({
    customerRef,
    paymentMethodRef: 'pm_card_visa',
    amountMinor: 500,
    currency: 'EUR',
    invoiceId: 'inv_1',
    offSession: true,
    idempotencyKey: 'inv_1_att_1',
  });
  await paypal.charge({
    customerRef: 'sd1',
    amountMinor: 500,
    currency: 'EUR',
    invoiceId: 'inv_2',
    offSession: false,
    idempotencyKey: 'inv_2_att_1',
  });
  const order = [...paypalFake.orders.keys()][0]!;
  await fetch(`${paypalFake.url}/_fake/orders/${order}/approve`, { method: 'POST' });
});
afterAll(async () => {
  await Promise.all([app.close(), stripeFake.close(), paypalFake.close()]);
});

describe('webhooks over HTTP to routes that keep the raw body', () => {
  it('Stripe: accepted on the raw-body route, refused behind the JSON parser', async () => {
    const event = stripeFake.events.find((e) => e.type === 'payment_intent.succeeded')!;
    expect(await stripeFake.deliver(event, `${base}/hooks/stripe`)).toBe(200);
    expect(seen.at(-1)).toMatch(/^payment_intent\.succeeded pi_/);
    expect(await stripeFake.deliver(event, `${base}/parsed/stripe`)).not.toBe(200);
  });

  it('PayPal: accepted once PayPal confirms the signature', async () => {
    const event = paypalFake.events.find((e) => e.event_type === 'CHECKOUT.ORDER.APPROVED')!;
    expect(await paypalFake.deliver(event, `${base}/hooks/paypal`)).toBe(200);
    expect(seen.at(-1)).toMatch(/^CHECKOUT\.ORDER\.APPROVED \w+/);
    expect(await paypalFake.deliver(event, `${base}/hooks/stripe`)).toBe(400);
  });
});
