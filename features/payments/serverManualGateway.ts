import { createHash } from 'node:crypto';
import { GatewayError, WebhookSignatureError, type Gateway, type PaymentResult } from './gateway';
import { minorToDecimal } from './money';

/**
 * The default rail of a fresh install (research 2.2 "Manual/offline gateway"): no keys, no
 * network. A charge asks the buyer to pay by bank transfer (the admin's instructions, with the
 * amount and a reference) and stays `processing` until an admin marks it paid with the bank's
 * reference; the same transitions as a card payment's follow. Its payments live in a store the
 * billing core gives (its own table); an in-memory one serves tests and a panel without it.
 */

export interface ManualPayment {
  gatewayPaymentId: string;
  invoiceId: string;
  amountMinor: number;
  currency: string;
  status: 'processing' | 'succeeded' | 'failed';
  /** The bank's reference an admin entered when marking it paid. */
  bankReference?: string;
  paidAt?: string;
}

export interface ManualPaymentStore {
  get(gatewayPaymentId: string): Promise<ManualPayment | undefined>;
  /** Writes the payment unless one with its id exists; gives the stored one either way. */
  putIfAbsent(payment: ManualPayment): Promise<ManualPayment>;
  update(payment: ManualPayment): Promise<void>;
}

export function memoryManualStore(): ManualPaymentStore {
  const payments = new Map<string, ManualPayment>();
  return {
    get: (id) => Promise.resolve(payments.get(id)),
    putIfAbsent: (payment) => {
      const stored = payments.get(payment.gatewayPaymentId) ?? payment;
      payments.set(stored.gatewayPaymentId, stored);
      return Promise.resolve({ ...stored });
    },
    update: (payment) => {
      payments.set(payment.gatewayPaymentId, { ...payment });
      return Promise.resolve();
    },
  };
}

export interface ManualGatewayConfig {
  /** The admin's bank transfer instructions (account holder, IBAN...), from the settings. */
  instructions: string;
  store?: ManualPaymentStore;
}

export interface ManualGateway extends Gateway {
  /** An admin saw the money arrive: the payment succeeds (once; a second mark is refused). */
  markPaid(input: {
    gatewayPaymentId: string;
    bankReference: string;
    paidAt?: Date;
  }): Promise<PaymentResult>;
  /** An admin gave up on the transfer (the invoice is voided or paid another way). */
  markFailed(input: { gatewayPaymentId: string }): Promise<PaymentResult>;
}

const NO_METHODS = 'Bank transfer keeps no saved payment methods.';

export function createManualGateway(config: ManualGatewayConfig): ManualGateway {
  const store = config.store ?? memoryManualStore();

  const resultOf = (payment: ManualPayment): PaymentResult => {
    const amount = `${minorToDecimal(payment.amountMinor, payment.currency)} ${payment.currency}`;
    const base = {
      gatewayPaymentId: payment.gatewayPaymentId,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
    };
    if (payment.status === 'succeeded') return { ...base, status: 'succeeded' };
    if (payment.status === 'failed')
      return {
        ...base,
        status: 'failed',
        errorCode: 'canceled',
        message: 'The bank transfer was cancelled.',
      };
    return {
      ...base,
      status: 'processing',
      message: `Pay ${amount} by bank transfer with the reference ${payment.gatewayPaymentId}.\n\n${config.instructions}`,
    };
  };

  const load = async (gatewayPaymentId: string) => {
    const payment = await store.get(gatewayPaymentId);
    if (!payment) throw new GatewayError(`No bank transfer ${gatewayPaymentId}`, 'invalid_request');
    return payment;
  };

  return {
    name: 'manual',
    createCustomer: ({ userId }) => Promise.resolve({ customerRef: `manual_${userId}` }),
    createSetup: () => Promise.reject(new GatewayError(NO_METHODS, 'invalid_request')),
    completeSetup: () => Promise.reject(new GatewayError(NO_METHODS, 'invalid_request')),
    listPaymentMethods: () => Promise.resolve([]),
    detach: () => Promise.reject(new GatewayError(NO_METHODS, 'invalid_request')),

    async charge(input) {
      // The same attempt gives the same transfer (and reference), however often it is asked.
      const reference = `BT-${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 12).toUpperCase()}`;
      const stored = await store.putIfAbsent({
        gatewayPaymentId: reference,
        invoiceId: input.invoiceId,
        amountMinor: input.amountMinor,
        currency: input.currency.toUpperCase(),
        status: 'processing',
      });
      if (stored.amountMinor !== input.amountMinor || stored.invoiceId !== input.invoiceId)
        return {
          status: 'failed',
          gatewayPaymentId: '',
          errorCode: 'invalid_request',
          message: 'This payment attempt was already made for another amount or invoice.',
        };
      return resultOf(stored);
    },

    retrieve: async ({ gatewayPaymentId }) => resultOf(await load(gatewayPaymentId)),
    complete: async ({ gatewayPaymentId }) => resultOf(await load(gatewayPaymentId)),

    async markPaid({ gatewayPaymentId, bankReference, paidAt }) {
      const payment = await load(gatewayPaymentId);
      if (payment.status !== 'processing')
        throw new GatewayError(
          `The bank transfer ${gatewayPaymentId} is already ${payment.status}.`,
          'invalid_request',
        );
      const paid: ManualPayment = {
        ...payment,
        status: 'succeeded',
        bankReference,
        paidAt: (paidAt ?? new Date()).toISOString(),
      };
      await store.update(paid);
      return resultOf(paid);
    },

    async markFailed({ gatewayPaymentId }) {
      const payment = await load(gatewayPaymentId);
      if (payment.status !== 'processing')
        throw new GatewayError(
          `The bank transfer ${gatewayPaymentId} is already ${payment.status}.`,
          'invalid_request',
        );
      const failed: ManualPayment = { ...payment, status: 'failed' };
      await store.update(failed);
      return resultOf(failed);
    },

    // The money goes back by hand: the refund waits for an admin.
    refund: async ({ gatewayPaymentId, idempotencyKey }) => {
      const payment = await load(gatewayPaymentId);
      if (payment.status !== 'succeeded')
        throw new GatewayError('Only a paid bank transfer can be refunded.', 'invalid_request');
      return {
        refundRef: `BTR-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12).toUpperCase()}`,
        status: 'pending',
      };
    },

    parseWebhook: () =>
      Promise.reject(new WebhookSignatureError('Bank transfers send no webhooks.')),
  };
}
