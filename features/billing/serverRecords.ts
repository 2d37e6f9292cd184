/** Rows -> the records the API answers (schemas.ts). */
import type { Invoice, Party, Subscription } from './schemas';
import type { InvoiceRow, SubscriptionRow } from './serverTables';

const partyOf = (text: string | null): Party | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Party;
  } catch {
    return null;
  }
};

export function invoiceRecord(row: InvoiceRow, now: number): Invoice {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    refers_to: row.refers_to,
    user_id: row.user_id,
    subscription_id: row.subscription_id,
    purpose: row.purpose,
    plan_id: row.plan_id,
    interval: row.interval,
    status: row.status,
    overdue:
      row.kind === 'invoice' &&
      row.status === 'open' &&
      row.due_at !== null &&
      Date.parse(row.due_at) < now,
    currency: row.currency,
    subtotal_minor: Number(row.subtotal_minor),
    discount_minor: Number(row.discount_minor),
    discount_label: row.discount_label,
    tax_minor: Number(row.tax_minor),
    tax_rate_percent: row.tax_rate_bp === null ? null : row.tax_rate_bp / 100,
    total_minor: Number(row.total_minor),
    buyer: partyOf(row.buyer),
    seller: partyOf(row.seller),
    reason: row.reason,
    period_start: row.period_start,
    period_end: row.period_end,
    due_at: row.due_at,
    paid_at: row.paid_at,
    voided_at: row.voided_at,
    finalized_at: row.finalized_at,
    created_at: row.created_at,
  };
}

export function subscriptionRecord(row: SubscriptionRow, planName: string): Subscription {
  return {
    id: row.id,
    user_id: row.user_id,
    plan_id: row.plan_id,
    plan_name: planName,
    interval: row.interval,
    status: row.status,
    pay_type: row.pay_type,
    current_period_start: row.current_period_start,
    current_period_end: row.current_period_end,
    cancel_at_period_end: Boolean(row.cancel_at_period_end),
    canceled_at: row.canceled_at,
    previous_subscription_id: row.previous_subscription_id,
    pending_plan_id: row.pending_plan_id,
    pending_invoice_id: row.pending_invoice_id,
    scheduled_plan_id: row.scheduled_plan_id,
    scheduled_interval: row.scheduled_interval,
    coupon_id: row.coupon_id,
    coupon_code: row.coupon_code,
    coupon_periods_left: row.coupon_periods_left,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
