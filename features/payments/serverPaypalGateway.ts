import {
  GatewayError,
  WebhookSignatureError,
  headerOf,
  type ChargeInput,
  type Gateway,
  type PaymentResult,
} from './gateway';
import { PaypalApiError, createPaypalClient, type PaypalClientConfig } from './serverPaypalClient';
import {
  EVENT_TYPES,
  call,
  failedCharge,
  fromOrder,
  paypalAmount,
  tokenInfo,
  type Order,
  type PaymentToken,
} from './serverPaypalResults';

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
