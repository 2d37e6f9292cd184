import {
  GatewayError,
  type NormalizedEventType,
  type PaymentMethodInfo,
  type PaymentResult,
} from './gateway';
import { decimalToMinor, minorToDecimal } from './money';
import { PaypalApiError } from './serverPaypalClient';

/** PayPal's answers (orders, captures, vault tokens, errors) as the Gateway's results. */

export interface Money {
  currency_code: string;
  value: string;
}
interface Capture {
  id: string;
  status: string;
  amount?: Money;
}
export interface Order {
  id: string;
  status: string;
  purchase_units?: { amount?: Money; custom_id?: string; payments?: { captures?: Capture[] } }[];
  links?: { href: string; rel: string }[];
}
export interface PaymentToken {
  id: string;
  customer?: { id?: string };
  payment_source?: { paypal?: { email_address?: string } };
}

const APPROVE = 'Approve the payment at PayPal.';

export const EVENT_TYPES: Record<string, NormalizedEventType> = {
  'CHECKOUT.ORDER.APPROVED': 'payment.approved',
  'CHECKOUT.ORDER.COMPLETED': 'payment.succeeded',
  'PAYMENT.CAPTURE.COMPLETED': 'payment.succeeded',
  'PAYMENT.CAPTURE.PENDING': 'payment.processing',
  'PAYMENT.CAPTURE.DENIED': 'payment.failed',
  'PAYMENT.CAPTURE.DECLINED': 'payment.failed',
  'PAYMENT.CAPTURE.REFUNDED': 'payment.refunded',
  'CUSTOMER.DISPUTE.CREATED': 'payment.disputed',
  'VAULT.PAYMENT-TOKEN.CREATED': 'payment_method.attached',
  'VAULT.PAYMENT-TOKEN.DELETED': 'payment_method.detached',
};

/** Currencies PayPal takes in whole units only though ISO 4217 gives them cents. */
const WHOLE_AT_PAYPAL = new Set(['HUF', 'TWD']);

/** The amount as PayPal's decimal string; throws GatewayError where PayPal cannot take it. */
export function paypalAmount(amountMinor: number, currency: string): Money {
  const code = currency.toUpperCase();
  const value = minorToDecimal(amountMinor, code);
  if (!WHOLE_AT_PAYPAL.has(code)) return { currency_code: code, value };
  if (!value.endsWith('.00'))
    throw new GatewayError(
      `PayPal takes ${code} in whole units only (${value} ${code}).`,
      'invalid_request',
    );
  return { currency_code: code, value: value.slice(0, -3) };
}

export function fromOrder(order: Order): PaymentResult {
  const unit = order.purchase_units?.[0];
  const amount = unit?.amount;
  const base = {
    gatewayPaymentId: order.id,
    ...(amount
      ? {
          amountMinor: decimalToMinor(amount.value, amount.currency_code),
          currency: amount.currency_code,
        }
      : {}),
  };
  const approveUrl = order.links?.find(
    (l) => l.rel === 'approve' || l.rel === 'payer-action',
  )?.href;
  switch (order.status) {
    case 'CREATED':
    case 'PAYER_ACTION_REQUIRED':
      return { ...base, status: 'requires_action', approveUrl, message: APPROVE };
    case 'APPROVED':
    case 'SAVED':
      return {
        ...base,
        status: 'processing',
        message: 'Approved at PayPal; the payment is being taken.',
      };
    case 'VOIDED':
      return {
        ...base,
        status: 'failed',
        errorCode: 'canceled',
        message: 'The PayPal payment was cancelled.',
      };
    case 'COMPLETED': {
      const capture = unit?.payments?.captures?.[0];
      if (capture?.status === 'PENDING')
        return {
          ...base,
          status: 'processing',
          message: 'PayPal is still processing the payment.',
        };
      if (capture?.status === 'DECLINED' || capture?.status === 'FAILED') return declined(order.id);
      return { ...base, status: 'succeeded' };
    }
    default:
      return { ...base, status: 'processing' };
  }
}

const declined = (gatewayPaymentId: string): PaymentResult => ({
  status: 'failed',
  gatewayPaymentId,
  errorCode: 'card_declined',
  declineCode: 'INSTRUMENT_DECLINED',
  message:
    'PayPal declined the payment. Choose another way to pay in PayPal, or another payment method.',
});

/** Any failure of a call as a GatewayError in words. */
export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof PaypalApiError)
    return error.status >= 500
      ? new GatewayError(
          `PayPal had a problem (${error.status}). Try again in a few minutes.`,
          'gateway_error',
          true,
        )
      : new GatewayError(`PayPal refused the request: ${error.message}`, 'invalid_request');
  return new GatewayError(`PayPal failed: ${String(error)}`, 'gateway_error', true);
}

export function failedCharge(error: unknown, gatewayPaymentId = ''): PaymentResult {
  if (error instanceof PaypalApiError && error.issue === 'INSTRUMENT_DECLINED')
    return declined(gatewayPaymentId);
  const failure = asGatewayError(error);
  return {
    status: 'failed',
    gatewayPaymentId,
    errorCode: failure.code,
    message: failure.message,
    retryable: failure.retryable,
  };
}

export async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asGatewayError(error);
  }
}

export function tokenInfo(token: PaymentToken): PaymentMethodInfo {
  return {
    ref: token.id,
    brand: 'paypal',
    last4: '',
    expMonth: null,
    expYear: null,
    isPaypal: true,
    email: token.payment_source?.paypal?.email_address,
  };
}
