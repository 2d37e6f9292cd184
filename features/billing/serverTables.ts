import type { Generated, Selectable } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';

export type SubscriptionStatus =
  'incomplete' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete_expired';
export type BillingInterval = 'month' | 'year';
export type PayType = 'manual' | 'card' | 'paypal';
export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
export type InvoiceKind = 'invoice' | 'credit_note';
/** Why an invoice was made: what paying it does to its subscription. */
export type InvoicePurpose = 'subscribe' | 'renewal' | 'upgrade' | 'credit';
export type PaymentAttemptStatus = 'succeeded' | 'requires_action' | 'processing' | 'failed';

export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  plan_id: number;
  interval: BillingInterval;
  status: SubscriptionStatus;
  pay_type: PayType;
  current_period_start: Timestamp | null;
  current_period_end: Timestamp | null;
  cancel_at_period_end: Flag;
  canceled_at: Timestamp | null;
  /** The subscription this one followed (the user's previous one, kept as history). */
  previous_subscription_id: number | null;
  /** An upgrade waiting for its invoice to be paid: switched only once paid. */
  pending_plan_id: number | null;
  pending_interval: BillingInterval | null;
  pending_invoice_id: number | null;
  /** A downgrade taking effect at the period's end. */
  scheduled_plan_id: number | null;
  scheduled_interval: BillingInterval | null;
  /** The coupon applied (features/coupons' redemption) and the invoices it still discounts. */
  coupon_id: number | null;
  coupon_redemption_id: number | null;
  coupon_code: string | null;
  /** JSON: the coupon's DiscountTerms (features/coupons/api.ts) as redeemed. */
  coupon_terms: string | null;
  /** null: every invoice (forever); 0: spent. */
  coupon_periods_left: number | null;
  /** Dunning steps done for the open renewal invoice (0: none). */
  dunning_step: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvoicesTable {
  id: Generated<number>;
  /** '2026-000001' ('CN-2026-000001' for credit notes); null while a draft. */
  number: string | null;
  kind: InvoiceKind;
  /** A credit note's invoice. */
  refers_to: number | null;
  user_id: number;
  subscription_id: number | null;
  purpose: InvoicePurpose;
  plan_id: number | null;
  interval: BillingInterval | null;
  status: InvoiceStatus;
  currency: string;
  subtotal_minor: number;
  discount_minor: number;
  discount_label: string | null;
  tax_minor: number;
  /** Basis points (2100 is 21 %); null: no tax. */
  tax_rate_bp: number | null;
  total_minor: number;
  /** JSON: the buyer as their profile said at finalize. */
  buyer: string | null;
  /** JSON: the seller at finalize. */
  seller: string | null;
  reason: string | null;
  period_start: Timestamp | null;
  period_end: Timestamp | null;
  due_at: Timestamp | null;
  paid_at: Timestamp | null;
  voided_at: Timestamp | null;
  finalized_at: Timestamp | null;
  created_at: Timestamp;
}

export interface InvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  description: string;
  quantity: number;
  unit_minor: number;
  amount_minor: number;
}

export interface InvoiceCountersTable {
  /** 'invoice' or 'credit_note': each its own gapless series. */
  kind: InvoiceKind;
  year: number;
  /** The number the next finalized document of the year gets. */
  next: number;
}

export interface BillingPaymentsTable {
  id: Generated<number>;
  invoice_id: number;
  user_id: number;
  gateway: 'manual' | 'stripe' | 'paypal';
  gateway_payment_id: string | null;
  status: PaymentAttemptStatus;
  amount_minor: number;
  currency: string;
  idempotency_key: string;
  attempt: number;
  error_code: string | null;
  message: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ManualPaymentsTable {
  gateway_payment_id: string;
  invoice_id: string;
  amount_minor: number;
  currency: string;
  status: 'processing' | 'succeeded' | 'failed';
  bank_reference: string | null;
  paid_at: Timestamp | null;
  created_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    subscriptions: SubscriptionsTable;
    invoices: InvoicesTable;
    invoice_lines: InvoiceLinesTable;
    invoice_counters: InvoiceCountersTable;
    payments: BillingPaymentsTable;
    manual_payments: ManualPaymentsTable;
  }
}

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceLineRow = Selectable<InvoiceLinesTable>;
export type PaymentRow = Selectable<BillingPaymentsTable>;
