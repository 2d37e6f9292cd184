/**
 * The payment rails the panel's billing uses (DESIGN.md "Money"; research business-and-scale.md
 * 2.5). The panel is the system of record for plans, subscriptions and invoices; a gateway only
 * moves money: it keeps customers and saved payment methods, charges an amount for an invoice,
 * refunds, and tells of changes by webhooks, which are triggers (the panel fetches the payment
 * again with `retrieve` before it changes any state). Amounts are integer minor units of
 * `currency` (ISO 4217, upper case) everywhere.
 */

export type GatewayName = 'stripe' | 'paypal' | 'manual';

export type PaymentStatus = 'succeeded' | 'requires_action' | 'processing' | 'failed';

/** Why a payment failed, in a few stable words the panel can branch on. */
export type PaymentErrorCode =
  /** The bank or PayPal refused; `declineCode` may say why (insufficient_funds...). */
  | 'card_declined'
  /** No answer in time: the outcome is unknown until the same attempt is repeated or retrieved. */
  | 'gateway_timeout'
  /** The gateway failed (HTTP 5xx) or could not be reached. */
  | 'gateway_error'
  /** The gateway refused the request itself (a bad reference, a closed payment...). */
  | 'invalid_request'
  /** The buyer cancelled or the payment expired before it was approved. */
  | 'canceled';

export interface PaymentResult {
  status: PaymentStatus;
  /** The gateway's id of the payment (PaymentIntent, PayPal order, manual reference); '' when
   * the gateway never answered with one (a timeout or a refusal before one existed). */
  gatewayPaymentId: string;
  amountMinor?: number;
  currency?: string;
  /** Stripe: what Stripe.js confirms in the browser (3-D Secure). */
  clientSecret?: string;
  /** PayPal: where the buyer approves the payment. */
  approveUrl?: string;
  errorCode?: PaymentErrorCode;
  /** The gateway's own reason when it gave one (Stripe's decline_code, PayPal's issue). */
  declineCode?: string;
  /** For the user, in words. */
  message?: string;
  /** A later attempt may succeed (timeouts and gateway errors). After a timeout, repeat the
   * charge with the SAME idempotency key: the gateway answers what it did the first time. */
  retryable?: boolean;
}

export interface PaymentMethodInfo {
  ref: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  isPaypal: boolean;
  /** PayPal: the account's address, shown instead of a card number. */
  email?: string;
}

export interface ChargeInput {
  customerRef: string;
  /** A saved method to charge off-session; omitted when the buyer pays on the page now. */
  paymentMethodRef?: string;
  amountMinor: number;
  currency: string;
  /** The panel's invoice, stored on the gateway's payment (metadata / custom_id). */
  invoiceId: string;
  /** A renewal charged without the buyer present (Stripe `off_session`). */
  offSession: boolean;
  /** One per payment attempt (`inv_<id>_att_<n>`): a retried job never charges twice. */
  idempotencyKey: string;
  description?: string;
}

export interface SetupResult {
  setupRef: string;
  /** Stripe: the SetupIntent's secret, confirmed by Stripe.js with the card form. */
  clientSecret?: string;
  /** PayPal: where the buyer approves saving their PayPal account. */
  approveUrl?: string;
}

export type NormalizedEventType =
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.requires_action'
  | 'payment.processing'
  /** PayPal: the buyer approved; `complete` captures it. */
  | 'payment.approved'
  | 'payment.canceled'
  | 'payment.refunded'
  | 'payment.disputed'
  | 'setup.succeeded'
  | 'payment_method.attached'
  | 'payment_method.detached'
  | 'other';

/** A verified webhook, reduced to what the panel needs to know what to fetch again. */
export interface NormalizedEvent {
  gateway: GatewayName;
  /** Unique per gateway: the panel stores it to process each event once. */
  eventId: string;
  type: NormalizedEventType;
  /** The gateway's own event type (`payment_intent.succeeded`, `PAYMENT.CAPTURE.COMPLETED`). */
  gatewayType: string;
  /** The payment to `retrieve` (PaymentIntent or PayPal order id), when the event is about one. */
  gatewayPaymentId?: string;
  /** Other object the event names (payment method, setup, refund, dispute). */
  objectRef?: string;
  /** The panel's invoice id the payment carries, when it carries one. */
  invoiceId?: string;
  /** When the gateway made the event, in seconds since the epoch. */
  created: number;
}

/** A webhook whose signature (Stripe) or verification call (PayPal) failed: answer 400. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** A call the gateway refused or could not make, outside a charge (whose failures are results). */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    message: string,
    readonly code: PaymentErrorCode,
    readonly retryable = false,
  ) {
    super(message);
  }
}

export interface Gateway {
  readonly name: GatewayName;
  createCustomer(input: { userId: string; email: string; name: string }): Promise<{
    customerRef: string;
  }>;
  /** Starts saving a payment method; the browser finishes it (Stripe.js or PayPal approval). */
  createSetup(input: {
    customerRef: string;
    returnUrl?: string;
    cancelUrl?: string;
  }): Promise<SetupResult>;
  /** Finishes a setup the buyer completed and gives the saved method. PayPal may name its own
   * customer id here: the panel keeps the `customerRef` this answers from then on. */
  completeSetup(input: {
    customerRef: string;
    setupRef: string;
  }): Promise<{ method: PaymentMethodInfo; customerRef: string }>;
  listPaymentMethods(input: { customerRef: string }): Promise<PaymentMethodInfo[]>;
  detach(input: { ref: string }): Promise<void>;
  /** Never throws for a refused or failed payment: the result says what happened. */
  charge(input: ChargeInput): Promise<PaymentResult>;
  /** The payment as the gateway has it now (after a webhook, a redirect or a timeout). */
  retrieve(input: { gatewayPaymentId: string }): Promise<PaymentResult>;
  /** Finishes a payment the buyer approved (PayPal captures the approved order; on Stripe the
   * browser confirmed it, so this is `retrieve`). Never trust a redirect: call this instead. */
  complete(input: { gatewayPaymentId: string; idempotencyKey: string }): Promise<PaymentResult>;
  refund(input: {
    gatewayPaymentId: string;
    amountMinor: number;
    idempotencyKey: string;
  }): Promise<{ refundRef: string; status: 'succeeded' | 'pending' | 'failed' }>;
  /** Verifies and reads a webhook from its exact raw bytes; throws WebhookSignatureError. */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<NormalizedEvent>;
}

/** A header's single value (Node gives arrays for repeated headers). */
export function headerOf(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
