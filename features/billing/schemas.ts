/** Billing's shapes (zod only: every program loads them). Money is integer minor units. */
import { z } from 'zod';

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete_expired',
] as const;
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export const PAY_TYPES = ['manual', 'card', 'paypal'] as const;
export const INTERVALS = ['month', 'year'] as const;
/** The spec's `type` of a subscription, and the interval it means. */
export const SUBSCRIPTION_TYPES = { monthly: 'month', annual: 'year' } as const;

/** The plan everybody falls back to (spec s.9). */
export const FREE_PLAN_ID = 2;
/** What a new account starts on (spec s.9: 1 Trial): Basic's limits for TRIAL_DAYS, then Free. */
export const TRIAL_PLAN_ID = 1;
export const TRIAL_DAYS = 14;

const time = z.string();

export const subscriptionSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  plan_id: z.number().int(),
  plan_name: z.string(),
  interval: z.enum(INTERVALS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  pay_type: z.enum(PAY_TYPES),
  current_period_start: time.nullable(),
  current_period_end: time.nullable(),
  cancel_at_period_end: z.boolean(),
  canceled_at: time.nullable(),
  previous_subscription_id: z.number().int().nullable(),
  /** An upgrade waiting for its invoice to be paid. */
  pending_plan_id: z.number().int().nullable(),
  pending_invoice_id: z.number().int().nullable(),
  /** A downgrade at the period's end. */
  scheduled_plan_id: z.number().int().nullable(),
  scheduled_interval: z.enum(INTERVALS).nullable(),
  coupon_id: z.number().int().nullable(),
  coupon_code: z.string().nullable(),
  /** Invoices the coupon still discounts; null: every one (or no coupon). */
  coupon_periods_left: z.number().int().nullable(),
  created_at: time,
  updated_at: time,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const partySchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  address: z.array(z.string()),
  country: z.string().nullable(),
  taxNumber: z.string().nullable(),
});
export type Party = z.infer<typeof partySchema>;

export const invoiceSchema = z.object({
  id: z.number().int(),
  number: z.string().nullable(),
  kind: z.enum(INVOICE_KINDS),
  refers_to: z.number().int().nullable(),
  user_id: z.number().int(),
  subscription_id: z.number().int().nullable(),
  purpose: z.enum(['subscribe', 'renewal', 'upgrade', 'credit']),
  plan_id: z.number().int().nullable(),
  interval: z.enum(INTERVALS).nullable(),
  status: z.enum(INVOICE_STATUSES),
  /** Open past its due time: derived when read, never stored. */
  overdue: z.boolean(),
  currency: z.string(),
  subtotal_minor: z.number().int(),
  discount_minor: z.number().int(),
  discount_label: z.string().nullable(),
  tax_minor: z.number().int(),
  tax_rate_percent: z.number().nullable(),
  total_minor: z.number().int(),
  buyer: partySchema.nullable(),
  seller: partySchema.nullable(),
  reason: z.string().nullable(),
  period_start: time.nullable(),
  period_end: time.nullable(),
  due_at: time.nullable(),
  paid_at: time.nullable(),
  voided_at: time.nullable(),
  finalized_at: time.nullable(),
  created_at: time,
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceLineSchema = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unit_minor: z.number().int(),
  amount_minor: z.number().int(),
});

export const paymentAttemptSchema = z.object({
  id: z.number().int(),
  gateway: z.enum(['manual', 'stripe', 'paypal']),
  gateway_payment_id: z.string().nullable(),
  status: z.enum(['succeeded', 'requires_action', 'processing', 'failed']),
  amount_minor: z.number().int(),
  currency: z.string(),
  attempt: z.number().int(),
  error_code: z.string().nullable(),
  message: z.string().nullable(),
  created_at: time,
});

export const invoiceDetailSchema = invoiceSchema.extend({
  lines: z.array(invoiceLineSchema),
  payments: z.array(paymentAttemptSchema),
  /** Credit notes issued against it (their totals). */
  credited_minor: z.number().int(),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

/** What the browser needs to pay an open invoice. */
export const paymentIntentSchema = z.object({
  invoice_id: z.number().int(),
  number: z.string().nullable(),
  plan_id: z.number().int().nullable(),
  amount_minor: z.number().int(),
  currency: z.string(),
  gateway: z.enum(['manual', 'stripe', 'paypal']),
  status: z.enum(['succeeded', 'requires_action', 'processing', 'failed']).nullable(),
  /** The bank transfer's reference (manual). */
  reference: z.string().nullable(),
  /** What to do, in words (the bank details for a transfer). */
  instructions: z.string().nullable(),
  /** Stripe.js confirms it (card; once payment methods are set up). */
  client_secret: z.string().nullable(),
  /** PayPal's approve page. */
  approve_url: z.string().nullable(),
  /** What Stripe.js is given with the client secret (card). */
  publishable_key: z.string().nullable(),
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

export const nextInvoiceSchema = z.object({
  at: time,
  plan_id: z.number().int(),
  interval: z.enum(INTERVALS),
  amount_minor: z.number().int(),
  discount_minor: z.number().int(),
  currency: z.string(),
});

export const subscriptionViewSchema = z.object({
  /** users.plan_id: the plan in force. */
  plan_id: z.number().int(),
  plan_name: z.string(),
  /** The live subscription (incomplete, active, past due or unpaid), or null. */
  subscription: subscriptionSchema.nullable(),
  /** Its invoice waiting for payment, if any. */
  open_invoice: invoiceSchema.nullable(),
  /** What the next renewal will ask, if one will come. */
  next_invoice: nextInvoiceSchema.nullable(),
  /** Every subscription of the account, newest first. */
  history: z.array(subscriptionSchema),
  /** The ways to pay this panel offers now (card and PayPal once set up and switched on). */
  pay_types: z.array(z.enum(PAY_TYPES)),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const subscribeQuery = z.object({
  plan_id: z.coerce.number('A plan id').int('A plan id').positive('A plan id'),
  type: z.enum(['monthly', 'annual'], 'monthly or annual').default('monthly'),
  pay_type: z.enum(PAY_TYPES, 'manual, card or paypal').default('manual'),
});

export const subscribeResult = z.object({
  /** subscribed: waits for its first payment; upgrade: switched once paid; downgrade: at the
   *  period's end; free: the Free plan, at once (or at the period's end of a paid one). */
  change: z.enum(['subscribed', 'upgrade', 'downgrade', 'free']),
  subscription: subscriptionSchema,
  invoice: invoiceSchema.nullable(),
  payment: paymentIntentSchema.nullable(),
});

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1, 'At least 1').default(1),
  perPage: z.coerce.number().int().min(1, 'At least 1').max(100, 'At most 100').default(25),
});

export const invoicePage = z.object({ data: z.array(invoiceSchema), total: z.number().int() });

export const adminInvoicesQuery = pageQuery.extend({
  status: z.enum(INVOICE_STATUSES).optional(),
  uid: z.coerce.number().int().positive().optional(),
});

export const adminInvoiceAction = z.object({
  action: z.enum(['mark-paid', 'void'], 'mark-paid or void'),
});
export const adminInvoiceBody = z.object({
  bank_reference: z
    .string()
    .trim()
    .min(1, 'The bank reference of the transfer')
    .max(200, 'At most 200 characters')
    .optional(),
});

export const creditNoteBody = z.object({
  amount_minor: z
    .number('An amount in minor units (cents)')
    .int('Whole minor units (cents)')
    .min(1, 'At least 1'),
  reason: z.string().trim().min(3, 'Say why (3 characters at least)').max(500, 'At most 500'),
});

export const applyCouponQuery = z.object({
  name: z.string().trim().min(1, 'The coupon code').max(40, 'At most 40 characters'),
});

export const uidQuery = z.object({ uid: z.coerce.number().int().positive('A user id') });

export const adminSubscriptionSchema = z.object({
  plan_id: z.number().int(),
  plan_name: z.string(),
  subscription: subscriptionSchema.nullable(),
  history: z.array(subscriptionSchema),
  open_invoices: z.array(invoiceSchema),
});

export const revenueSchema = z.object({
  entries: z.array(
    z.object({
      invoice_id: z.number().int(),
      number: z.string().nullable(),
      kind: z.enum(INVOICE_KINDS),
      paid_at: time.nullable(),
      /** A credit note's amount counts against the revenue (negative). */
      amount_minor: z.number().int(),
      currency: z.string(),
    }),
  ),
  total_minor: z.number().int(),
  currency: z.string(),
});
