import Stripe from 'stripe';
import {
  GatewayError,
  WebhookSignatureError,
  headerOf,
  type ChargeInput,
  type Gateway,
  type NormalizedEventType,
  type PaymentMethodInfo,
  type PaymentResult,
} from './gateway';

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

/** What a user reads for the decline codes Stripe documents most (docs.stripe.com/declines/codes). */
const DECLINE_WORDS: Record<string, string> = {
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: "The card's security code is incorrect.",
  lost_card: 'The card was declined.',
  stolen_card: 'The card was declined.',
  do_not_honor: 'The card was declined by its bank.',
  generic_decline: 'The card was declined by its bank.',
};

const THREE_DS = 'Your bank asks you to confirm this payment (3-D Secure).';

const EVENT_TYPES: Record<string, NormalizedEventType> = {
  'payment_intent.succeeded': 'payment.succeeded',
  'payment_intent.payment_failed': 'payment.failed',
  'payment_intent.requires_action': 'payment.requires_action',
  'payment_intent.processing': 'payment.processing',
  'payment_intent.canceled': 'payment.canceled',
  'charge.refunded': 'payment.refunded',
  'charge.dispute.created': 'payment.disputed',
  'setup_intent.succeeded': 'setup.succeeded',
  'payment_method.attached': 'payment_method.attached',
  'payment_method.detached': 'payment_method.detached',
};

function fromIntent(intent: Stripe.PaymentIntent): PaymentResult {
  const base = {
    gatewayPaymentId: intent.id,
    amountMinor: intent.amount,
    currency: intent.currency.toUpperCase(),
  };
  const secret = intent.client_secret ?? undefined;
  switch (intent.status) {
    case 'succeeded':
      return { ...base, status: 'succeeded' };
    case 'processing':
    case 'requires_capture':
      return { ...base, status: 'processing', message: 'The payment is being processed.' };
    case 'requires_action':
    case 'requires_confirmation':
      return { ...base, status: 'requires_action', clientSecret: secret, message: THREE_DS };
    case 'canceled':
      return {
        ...base,
        status: 'failed',
        errorCode: 'canceled',
        message: 'The payment was cancelled.',
      };
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      if (!error)
        return {
          ...base,
          status: 'requires_action',
          clientSecret: secret,
          message: 'Enter a card to pay.',
        };
      if (error.code === 'authentication_required')
        return { ...base, status: 'requires_action', clientSecret: secret, message: THREE_DS };
      return {
        ...base,
        status: 'failed',
        errorCode: 'card_declined',
        declineCode: error.decline_code ?? error.code,
        message: declineWords(error.decline_code ?? error.code, error.message),
      };
    }
    default:
      return { ...base, status: 'processing' };
  }
}

function methodInfo(method: Stripe.PaymentMethod): PaymentMethodInfo {
  return {
    ref: method.id,
    brand: method.card?.brand ?? method.type,
    last4: method.card?.last4 ?? '',
    expMonth: method.card?.exp_month ?? null,
    expYear: method.card?.exp_year ?? null,
    isPaypal: false,
  };
}

function declineWords(code: string | undefined, fallback: string | undefined): string {
  return (code && DECLINE_WORDS[code]) || fallback || 'The card was declined.';
}

/** A charge's failure as a result: a decline, 3-D Secure off-session, a timeout, a 5xx. */
function fromChargeError(error: unknown): PaymentResult {
  if (error instanceof Stripe.errors.StripeCardError) {
    const raw = error.raw as { payment_intent?: Stripe.PaymentIntent };
    const intent = raw.payment_intent;
    if (error.code === 'authentication_required' && intent)
      return {
        status: 'requires_action',
        gatewayPaymentId: intent.id,
        amountMinor: intent.amount,
        currency: intent.currency.toUpperCase(),
        clientSecret: intent.client_secret ?? undefined,
        message: THREE_DS,
      };
    return {
      status: 'failed',
      gatewayPaymentId: intent?.id ?? '',
      errorCode: 'card_declined',
      declineCode: error.decline_code ?? error.code,
      message: declineWords(error.decline_code ?? error.code, error.message),
    };
  }
  const failure = asGatewayError(error);
  return {
    status: 'failed',
    gatewayPaymentId: '',
    errorCode: failure.code,
    message: failure.message,
    retryable: failure.retryable,
  };
}

/** Any other SDK error in words, and whether trying again may help. */
function asGatewayError(error: unknown): GatewayError {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const timedOut = (error.detail as { code?: string } | undefined)?.code === 'ETIMEDOUT';
    return timedOut
      ? new GatewayError(
          'Stripe did not answer in time. Trying again is safe: the same attempt is never charged twice.',
          'gateway_timeout',
          true,
        )
      : new GatewayError(
          'Stripe could not be reached. Try again in a few minutes.',
          'gateway_error',
          true,
        );
  }
  // Another request with the same key is still running (two jobs on one attempt).
  if (error instanceof Stripe.errors.StripeError && error.statusCode === 409)
    return new GatewayError(
      'This payment attempt is already in progress at Stripe. Try again shortly: the same attempt is never charged twice.',
      'gateway_error',
      true,
    );
  if (
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  )
    return new GatewayError(
      `Stripe had a problem (${error.statusCode ?? 'error'}). Try again in a few minutes.`,
      'gateway_error',
      true,
    );
  if (error instanceof Stripe.errors.StripeAuthenticationError)
    return new GatewayError('Stripe refused the secret key in the settings.', 'gateway_error');
  if (error instanceof Stripe.errors.StripeIdempotencyError)
    return new GatewayError(
      `Stripe refused a repeated request: ${error.message}`,
      'invalid_request',
    );
  if (error instanceof Stripe.errors.StripeError)
    return new GatewayError(`Stripe refused the request: ${error.message}`, 'invalid_request');
  return new GatewayError(`Stripe failed: ${String(error)}`, 'gateway_error', true);
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asGatewayError(error);
  }
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
