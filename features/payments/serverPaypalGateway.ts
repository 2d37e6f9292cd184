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
import { decimalToMinor, minorToDecimal } from './money';
import { PaypalApiError, createPaypalClient, type PaypalClientConfig } from './serverPaypalClient';

/**
 * PayPal as a rail (research 2.4), through our own client: an order per payment (Orders v2,
 * `intent: CAPTURE`, the panel's invoice in `custom_id`), approved by the buyer at PayPal and
 * captured by `complete`, or paid at once with a saved PayPal account (Vault v3 payment token,
 * `vault_id`) for renewals. The payment's id is the order's id; refunds go to its capture.
 * Webhooks are verified by PayPal's own verify-webhook-signature call, never by the panel.
 */

export interface PaypalGatewayConfig extends PaypalClientConfig {
  /** The webhook's id at PayPal (its verification call needs it). */
  webhookId: string;
  /** Where PayPal sends the buyer back after approving or cancelling. */
  returnUrl: string;
  cancelUrl: string;
}

interface Money {
  currency_code: string;
  value: string;
}
interface Capture {
  id: string;
  status: string;
  amount?: Money;
}
interface Order {
  id: string;
  status: string;
  purchase_units?: { amount?: Money; custom_id?: string; payments?: { captures?: Capture[] } }[];
  links?: { href: string; rel: string }[];
}
interface PaymentToken {
  id: string;
  customer?: { id?: string };
  payment_source?: { paypal?: { email_address?: string } };
}

const APPROVE = 'Approve the payment at PayPal.';

const EVENT_TYPES: Record<string, NormalizedEventType> = {
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
function paypalAmount(amountMinor: number, currency: string): Money {
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

function fromOrder(order: Order): PaymentResult {
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
function asGatewayError(error: unknown): GatewayError {
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

function failedCharge(error: unknown, gatewayPaymentId = ''): PaymentResult {
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

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asGatewayError(error);
  }
}

function tokenInfo(token: PaymentToken): PaymentMethodInfo {
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

export function createPaypalGateway(config: PaypalGatewayConfig): Gateway {
  const client = createPaypalClient(config);
  const experience = {
    return_url: config.returnUrl,
    cancel_url: config.cancelUrl,
    shipping_preference: 'NO_SHIPPING',
    user_action: 'PAY_NOW',
  };

  /** Captures an approved order; a capture already made answers what it took. */
  async function capture(orderId: string, requestId: string): Promise<PaymentResult> {
    try {
      return fromOrder(
        await client.request<Order>('POST', `/v2/checkout/orders/${orderId}/capture`, {
          body: {},
          requestId,
        }),
      );
    } catch (error) {
      if (error instanceof PaypalApiError && error.issue === 'ORDER_ALREADY_CAPTURED')
        return fromOrder(await client.request<Order>('GET', `/v2/checkout/orders/${orderId}`));
      return failedCharge(error, orderId);
    }
  }

  return {
    name: 'paypal',

    // PayPal keeps no customer before a first saved account: the panel's own id stands for
    // the buyer until Vault answers with PayPal's (completeSetup).
    createCustomer: ({ userId }) =>
      Promise.resolve({ customerRef: `sd${userId.replace(/[^0-9A-Za-z_-]/g, '')}`.slice(0, 22) }),

    createSetup: ({ customerRef, returnUrl, cancelUrl }) =>
      call(async () => {
        const token = await client.request<{ id: string; links?: { href: string; rel: string }[] }>(
          'POST',
          '/v3/vault/setup-tokens',
          {
            body: {
              customer: { id: customerRef },
              payment_source: {
                paypal: {
                  usage_type: 'MERCHANT',
                  experience_context: {
                    return_url: returnUrl ?? config.returnUrl,
                    cancel_url: cancelUrl ?? config.cancelUrl,
                  },
                },
              },
            },
          },
        );
        return {
          setupRef: token.id,
          approveUrl: token.links?.find((l) => l.rel === 'approve')?.href,
        };
      }),

    completeSetup: ({ customerRef, setupRef }) =>
      call(async () => {
        const token = await client.request<PaymentToken>('POST', '/v3/vault/payment-tokens', {
          body: { payment_source: { token: { id: setupRef, type: 'SETUP_TOKEN' } } },
          requestId: `setup-${setupRef}`,
        });
        return { method: tokenInfo(token), customerRef: token.customer?.id ?? customerRef };
      }),

    listPaymentMethods: ({ customerRef }) =>
      call(async () => {
        const list = await client.request<{ payment_tokens?: PaymentToken[] }>(
          'GET',
          `/v3/vault/payment-tokens?customer_id=${encodeURIComponent(customerRef)}`,
        );
        return (list.payment_tokens ?? []).map(tokenInfo);
      }),

    detach: ({ ref }) =>
      call(async () => {
        await client.request('DELETE', `/v3/vault/payment-tokens/${encodeURIComponent(ref)}`);
      }),

    async charge(input: ChargeInput) {
      let order: Order;
      try {
        order = await client.request<Order>('POST', '/v2/checkout/orders', {
          requestId: input.idempotencyKey,
          body: {
            intent: 'CAPTURE',
            purchase_units: [
              {
                custom_id: input.invoiceId,
                description: input.description,
                amount: paypalAmount(input.amountMinor, input.currency),
              },
            ],
            payment_source: {
              paypal: input.paymentMethodRef
                ? { vault_id: input.paymentMethodRef }
                : { experience_context: experience },
            },
          },
        });
      } catch (error) {
        return failedCharge(error);
      }
      // A saved account may leave the order approved rather than captured.
      if (order.status === 'APPROVED') return capture(order.id, `${input.idempotencyKey}-capture`);
      return fromOrder(order);
    },

    retrieve: ({ gatewayPaymentId }) =>
      call(async () =>
        fromOrder(
          await client.request<Order>(
            'GET',
            `/v2/checkout/orders/${encodeURIComponent(gatewayPaymentId)}`,
          ),
        ),
      ),

    async complete({ gatewayPaymentId, idempotencyKey }) {
      const order = await call(() =>
        client.request<Order>('GET', `/v2/checkout/orders/${encodeURIComponent(gatewayPaymentId)}`),
      );
      if (order.status !== 'APPROVED') return fromOrder(order);
      return capture(order.id, idempotencyKey);
    },

    refund: ({ gatewayPaymentId, amountMinor, idempotencyKey }) =>
      call(async () => {
        const order = await client.request<Order>(
          'GET',
          `/v2/checkout/orders/${encodeURIComponent(gatewayPaymentId)}`,
        );
        const captureOf = order.purchase_units?.[0]?.payments?.captures?.[0];
        const currency = order.purchase_units?.[0]?.amount?.currency_code;
        if (!captureOf || !currency)
          throw new GatewayError(
            'This PayPal payment was never taken, so nothing can be refunded.',
            'invalid_request',
          );
        const refund = await client.request<{ id: string; status: string }>(
          'POST',
          `/v2/payments/captures/${captureOf.id}/refund`,
          {
            requestId: idempotencyKey,
            body: { amount: paypalAmount(amountMinor, currency) },
          },
        );
        const status =
          refund.status === 'COMPLETED'
            ? 'succeeded'
            : refund.status === 'PENDING'
              ? 'pending'
              : 'failed';
        return { refundRef: refund.id, status };
      }),

    async parseWebhook(rawBody, headers) {
      let event: {
        id?: string;
        event_type?: string;
        create_time?: string;
        resource?: {
          id?: string;
          custom_id?: string;
          purchase_units?: { custom_id?: string }[];
          supplementary_data?: { related_ids?: { order_id?: string } };
        };
      };
      try {
        event = JSON.parse(rawBody.toString('utf8')) as typeof event;
      } catch {
        throw new WebhookSignatureError('The PayPal webhook is not JSON');
      }
      const names = [
        'auth-algo',
        'cert-url',
        'transmission-id',
        'transmission-sig',
        'transmission-time',
      ];
      const [authAlgo, certUrl, transmissionId, transmissionSig, transmissionTime] = names.map(
        (n) => headerOf(headers, `paypal-${n}`),
      );
      if (!authAlgo || !certUrl || !transmissionId || !transmissionSig || !transmissionTime)
        throw new WebhookSignatureError('PayPal transmission headers are missing');
      const verdict = await call(() =>
        client.request<{ verification_status?: string }>(
          'POST',
          '/v1/notifications/verify-webhook-signature',
          {
            body: {
              auth_algo: authAlgo,
              cert_url: certUrl,
              transmission_id: transmissionId,
              transmission_sig: transmissionSig,
              transmission_time: transmissionTime,
              webhook_id: config.webhookId,
              webhook_event: event,
            },
          },
        ),
      );
      if (verdict.verification_status !== 'SUCCESS')
        throw new WebhookSignatureError('PayPal did not confirm the webhook signature');
      const type = event.event_type ?? '';
      const resource = event.resource ?? {};
      const orderId = type.startsWith('CHECKOUT.ORDER.')
        ? resource.id
        : resource.supplementary_data?.related_ids?.order_id;
      return {
        gateway: 'paypal',
        eventId: event.id ?? '',
        type: EVENT_TYPES[type] ?? 'other',
        gatewayType: type,
        gatewayPaymentId: orderId,
        objectRef: resource.id,
        invoiceId: resource.custom_id ?? resource.purchase_units?.[0]?.custom_id,
        created: Math.floor(Date.parse(event.create_time ?? '') / 1000) || 0,
      };
    },
  };
}
