import Stripe from 'stripe';
import {
  GatewayError,
  type NormalizedEventType,
  type PaymentMethodInfo,
  type PaymentResult,
} from './gateway';

/** Stripe's answers (payment intents, payment methods, SDK errors) as the Gateway's results. */

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

export const EVENT_TYPES: Record<string, NormalizedEventType> = {
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

export function fromIntent(intent: Stripe.PaymentIntent): PaymentResult {
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

export function methodInfo(method: Stripe.PaymentMethod): PaymentMethodInfo {
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
export function fromChargeError(error: unknown): PaymentResult {
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
  // The rail's own refusal ("not saved yet") keeps its words and code.
  if (error instanceof GatewayError) return error;
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

export async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asGatewayError(error);
  }
}
