import type { FastifyInstance } from 'fastify';
import { GatewayError, type GatewayName, type PaymentResult } from '../payments/serverApi';
import { gatewayIfSet, NOT_SET_UP } from './serverGateways';
import { customerRefOf } from './serverStore';
import { CARD_GATEWAYS } from './resource';
import type { CardGateway } from './serverTables';

export interface CollectInput {
  userId: number;
  /** Billing's invoice id (stored on the gateway payment as metadata/custom_id). */
  invoiceId: number;
  amountMinor: number;
  /** ISO 4217 upper case. */
  currency: string;
  gateway: 'stripe' | 'paypal';
  /**
   * true: charge the user's saved default method of that gateway without them (renewal);
   * false: start an on-page payment (Stripe: a PaymentIntent whose clientSecret Stripe.js
   * confirms; PayPal: an order whose approveUrl the browser opens).
   */
  offSession: boolean;
  /** `inv_<invoiceId>_att_<n>`: a repeated attempt is charged once. */
  idempotencyKey: string;
  description: string;
}

const failed = (message: string, errorCode: PaymentResult['errorCode'] = 'invalid_request') =>
  ({ status: 'failed', gatewayPaymentId: '', errorCode, message, retryable: false }) as const;

/** A gateway call that threw (no charge was made, or its outcome is for `retrieve` to tell). */
const fromThrown = (error: unknown): PaymentResult =>
  error instanceof GatewayError
    ? {
        status: 'failed',
        gatewayPaymentId: '',
        errorCode: error.code,
        message: error.message,
        retryable: error.retryable,
      }
    : failed(error instanceof Error ? error.message : String(error), 'gateway_error');

/** The user's default saved method at that gateway: their default, else their newest there. */
async function savedMethodAt(app: FastifyInstance, userId: number, gateway: CardGateway) {
  return app.db
    .selectFrom('payment_methods')
    .select('ref')
    .where('user_id', '=', userId)
    .where('gateway', '=', gateway)
    .orderBy('is_default', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * Charges an invoice (renewals off-session with the saved method) or starts its on-page
 * payment. Never throws for a refused payment: the result says what happened, in words.
 */
export async function collectPayment(
  app: FastifyInstance,
  input: CollectInput,
): Promise<PaymentResult> {
  const ready = await gatewayIfSet(app, input.gateway);
  if (!ready) return failed(NOT_SET_UP[input.gateway]);
  const { gateway } = ready;
  let customerRef: string;
  try {
    customerRef = await customerRefOf(app, input.userId, input.gateway, gateway);
  } catch (error) {
    return fromThrown(error);
  }
  let paymentMethodRef: string | undefined;
  if (input.offSession) {
    const saved = await savedMethodAt(app, input.userId, input.gateway);
    if (!saved)
      return failed(
        input.gateway === 'stripe'
          ? 'No card is saved for this account: add one under Payment methods, or pay on the invoice page'
          : 'No PayPal account is saved for this account: add one under Payment methods, or pay on the invoice page',
      );
    paymentMethodRef = saved.ref;
  }
  const result = await gateway
    .charge({
      customerRef,
      paymentMethodRef,
      amountMinor: input.amountMinor,
      currency: input.currency,
      invoiceId: String(input.invoiceId),
      offSession: input.offSession,
      idempotencyKey: input.idempotencyKey,
      description: input.description,
    })
    .catch(fromThrown);
  if (result.gatewayPaymentId)
    await app.db
      .insertInto('gateway_payments')
      .values({
        user_id: input.userId,
        gateway: input.gateway,
        payment_ref: result.gatewayPaymentId,
        invoice_id: input.invoiceId,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.columns(['gateway', 'payment_ref']).doNothing())
      .execute();
  return result;
}

/** The payment as the gateway has it now. */
export async function retrievePayment(
  app: FastifyInstance,
  gateway: GatewayName,
  gatewayPaymentId: string,
): Promise<PaymentResult> {
  if (gateway === 'manual') return failed("Manual payments are billing's own, not a gateway's");
  const ready = await gatewayIfSet(app, gateway);
  if (!ready) return failed(NOT_SET_UP[gateway]);
  return ready.gateway.retrieve({ gatewayPaymentId }).catch(fromThrown);
}

export async function refundPayment(
  app: FastifyInstance,
  input: {
    gateway: GatewayName;
    gatewayPaymentId: string;
    amountMinor: number;
    idempotencyKey: string;
  },
): Promise<{ refundRef: string; status: 'succeeded' | 'pending' | 'failed' }> {
  if (input.gateway === 'manual') return { refundRef: '', status: 'failed' };
  const ready = await gatewayIfSet(app, input.gateway);
  if (!ready) return { refundRef: '', status: 'failed' };
  return ready.gateway
    .refund({
      gatewayPaymentId: input.gatewayPaymentId,
      amountMinor: input.amountMinor,
      idempotencyKey: input.idempotencyKey,
    })
    .catch((error: unknown) => {
      app.log.warn({ err: error, payment: input.gatewayPaymentId }, 'refund refused or failed');
      return { refundRef: '', status: 'failed' as const };
    });
}

/** The card/PayPal rails set up on this panel (keys present). The manual rail is billing's. */
export async function availableGateways(app: FastifyInstance): Promise<Array<'stripe' | 'paypal'>> {
  const set = await Promise.all(CARD_GATEWAYS.map((g) => gatewayIfSet(app, g)));
  return CARD_GATEWAYS.filter((_, i) => set[i] !== null);
}

/** The user's default saved method (for the subscription page and renewals), or null. */
export async function defaultMethodOf(
  app: FastifyInstance,
  userId: number,
): Promise<{
  id: number;
  gateway: 'stripe' | 'paypal';
  brand: string;
  last4: string;
  is_paypal: boolean;
  email: string | null;
} | null> {
  const row = await app.db
    .selectFrom('payment_methods')
    .select(['id', 'gateway', 'brand', 'last4', 'is_paypal', 'email'])
    .where('user_id', '=', userId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  return row ? { ...row, is_paypal: row.is_paypal === 1 } : null;
}
