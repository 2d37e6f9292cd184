import Stripe from 'stripe';
import {
  GatewayError,
  WebhookSignatureError,
  headerOf,
  type ChargeInput,
  type Gateway,
} from './gateway';
import { EVENT_TYPES, call, fromChargeError, fromIntent, methodInfo } from './serverStripeResults';

/**
 * Cards through Stripe with its official SDK (research 2.3). Stripe is used only as a rail:
 * Customers, SetupIntents and PaymentMethods to save cards, PaymentIntents to charge (the first
 * payment on the page, confirmed by Stripe.js with the client secret; renewals `off_session`),
 * Refunds. Subscriptions and invoices stay in the panel.
 */

/** The API version this code is written against: the one stripe@23 is typed for. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeGatewayConfig {
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_...`). */
  webhookSecret: string;
  /** Tests point the SDK at a local fake; production leaves these unset (api.stripe.com). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Milliseconds before a call counts as timed out (the SDK's default is 80 s). */
  timeoutMs?: number;
  /** The SDK's own retries of connection errors, 409s and 5xx, with the same idempotency key. */
  maxNetworkRetries?: number;
}

export function createStripeGateway(config: StripeGatewayConfig): Gateway {
  const stripe = new Stripe(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: config.host,
    port: config.port,
    protocol: config.protocol,
    timeout: config.timeoutMs ?? 30_000,
    maxNetworkRetries: config.maxNetworkRetries ?? 2,
    telemetry: false,
  });

  return {
    name: 'stripe',

    createCustomer: ({ userId, email, name }) =>
      call(async () => {
        // One customer per user even when the call is repeated within Stripe's 24 h.
        const customer = await stripe.customers.create(
          { email, name, metadata: { user_id: userId } },
          { idempotencyKey: `customer_${userId}` },
        );
        return { customerRef: customer.id };
      }),

    createSetup: ({ customerRef }) =>
      call(async () => {
        const intent = await stripe.setupIntents.create({
          customer: customerRef,
          usage: 'off_session',
          allowed_payment_method_types: ['card'],
        });
        return { setupRef: intent.id, clientSecret: intent.client_secret ?? undefined };
      }),

    completeSetup: ({ customerRef, setupRef }) =>
      call(async () => {
        const intent = await stripe.setupIntents.retrieve(setupRef, { expand: ['payment_method'] });
        const method = intent.payment_method;
        if (intent.status !== 'succeeded' || !method || typeof method === 'string')
          throw new GatewayError(
            'The card has not been saved yet: finish the card form first.',
            'invalid_request',
          );
        return { method: methodInfo(method), customerRef };
      }),

    listPaymentMethods: ({ customerRef }) =>
      call(async () => {
        const methods = await stripe.paymentMethods.list({
          customer: customerRef,
          type: 'card',
          limit: 100,
        });
        return methods.data.map(methodInfo);
      }),

    detach: ({ ref }) =>
      call(async () => {
        await stripe.paymentMethods.detach(ref);
      }),

    async charge(input: ChargeInput) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amountMinor,
            currency: input.currency.toLowerCase(),
            customer: input.customerRef,
            description: input.description,
            metadata: { invoice_id: input.invoiceId },
            allowed_payment_method_types: ['card'],
            ...(input.paymentMethodRef
              ? {
                  payment_method: input.paymentMethodRef,
                  confirm: true,
                  off_session: input.offSession,
                }
              : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return fromIntent(intent);
      } catch (error) {
        return fromChargeError(error);
      }
    },

    retrieve: ({ gatewayPaymentId }) =>
      call(async () => fromIntent(await stripe.paymentIntents.retrieve(gatewayPaymentId))),

    // Stripe.js confirmed it in the browser; the panel only believes what Stripe says now.
    complete: ({ gatewayPaymentId }) =>
      call(async () => fromIntent(await stripe.paymentIntents.retrieve(gatewayPaymentId))),

    refund: ({ gatewayPaymentId, amountMinor, idempotencyKey }) =>
      call(async () => {
        const refund = await stripe.refunds.create(
          { payment_intent: gatewayPaymentId, amount: amountMinor },
          { idempotencyKey },
        );
        const status =
          refund.status === 'succeeded'
            ? 'succeeded'
            : refund.status === 'failed' || refund.status === 'canceled'
              ? 'failed'
              : 'pending';
        return { refundRef: refund.id, status };
      }),

    async parseWebhook(rawBody, headers) {
      const signature = headerOf(headers, 'stripe-signature');
      if (!signature) throw new WebhookSignatureError('No Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Bad signature');
      }
      const object = event.data.object as unknown as {
        id: string;
        object: string;
        payment_intent?: string | { id: string } | null;
        metadata?: Record<string, string> | null;
      };
      const paymentIntent =
        object.object === 'payment_intent'
          ? object.id
          : typeof object.payment_intent === 'string'
            ? object.payment_intent
            : object.payment_intent?.id;
      return {
        gateway: 'stripe',
        eventId: event.id,
        type: EVENT_TYPES[event.type] ?? 'other',
        gatewayType: event.type,
        gatewayPaymentId: paymentIntent ?? undefined,
        objectRef: object.id,
        invoiceId: object.metadata?.invoice_id,
        created: event.created,
      };
    },
  };
}
