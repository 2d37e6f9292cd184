/**
 * Payment attempts and their outcome: one `payments` row per attempt, keyed `inv_<id>_att_<n>`
 * (a retried job or a second panel makes the same attempt, never a second charge), and
 * `settlePayment`, the one path by which an invoice becomes paid (a gateway's confirmation
 * fetched server-side, or an admin marking a bank transfer paid) and its subscription follows.
 */
import type { FastifyInstance } from 'fastify';
import { callerChanges } from '../../server/auth/callerCache';
import type { After } from '../../server/events/types';
import { HttpError } from '../../server/http/errors';
import type { GatewayName, PaymentResult } from '../payments/serverApi';
import { minorToDecimal } from '../payments/serverApi';
import { collectCard, manualGateway } from './serverCollect';
import { type Trx, isUniqueViolation } from './serverInvoices';
import type { InvoiceRow, PayType, PaymentRow } from './serverTables';

/** The billing contract's 'payment.settled' payload (features/payment-methods raises it). */
export interface SettledPayment {
  gateway: GatewayName;
  gatewayPaymentId: string;
  invoiceId: number | null;
  result: PaymentResult;
}

export const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

export const attemptKey = (invoiceId: number, attempt: number) => `inv_${invoiceId}_att_${attempt}`;

const gatewayOf = (payType: PayType): 'manual' | 'stripe' | 'paypal' =>
  payType === 'card' ? 'stripe' : payType;

/** The result a stored attempt stands for (a repeated attempt answers what it did). */
export function resultOfRow(row: PaymentRow): PaymentResult {
  return {
    status: row.status,
    gatewayPaymentId: row.gateway_payment_id ?? '',
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    ...(row.error_code !== null && { errorCode: row.error_code as PaymentResult['errorCode'] }),
    ...(row.message !== null && { message: row.message }),
  };
}

/**
 * Attempt `attempt` at collecting an open invoice by its pay type. The attempt's row is claimed
 * first by its unique key: whoever loses the race answers the stored attempt.
 */
export async function chargeInvoice(
  app: FastifyInstance,
  invoice: InvoiceRow,
  payType: PayType,
  attempt: number,
  offSession: boolean,
): Promise<PaymentResult> {
  const key = attemptKey(invoice.id, attempt);
  const existing = await app.db
    .selectFrom('payments')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  // Same attempt again: a manual transfer is asked again (same reference), anything else answers
  // as stored.
  if (existing && (existing.gateway !== 'manual' || existing.status !== 'processing'))
    return resultOfRow(existing);
  const at = stamp(app);
  const gateway = gatewayOf(payType);
  if (!existing)
    try {
      await app.db
        .insertInto('payments')
        .values({
          invoice_id: invoice.id,
          user_id: invoice.user_id,
          gateway,
          gateway_payment_id: null,
          status: 'processing',
          amount_minor: Number(invoice.total_minor),
          currency: invoice.currency,
          idempotency_key: key,
          attempt,
          error_code: null,
          message: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  let result: PaymentResult;
  const description = `Invoice ${invoice.number ?? invoice.id}`;
  if (gateway === 'manual') {
    const rail = await manualGateway(app);
    result = await rail.charge({
      customerRef: `manual_${invoice.user_id}`,
      amountMinor: Number(invoice.total_minor),
      currency: invoice.currency,
      invoiceId: String(invoice.id),
      offSession,
      idempotencyKey: key,
      description,
    });
  } else {
    try {
      result = await collectCard(app, {
        userId: invoice.user_id,
        invoiceId: invoice.id,
        amountMinor: Number(invoice.total_minor),
        currency: invoice.currency,
        gateway,
        offSession,
        idempotencyKey: key,
        description,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = {
        status: 'failed',
        gatewayPaymentId: '',
        errorCode: 'invalid_request',
        message,
      };
    }
  }
  await app.db
    .updateTable('payments')
    .set({
      gateway_payment_id: result.gatewayPaymentId || null,
      status: result.status,
      error_code: result.errorCode ?? null,
      message: result.message ?? null,
      updated_at: stamp(app),
    })
    .where('idempotency_key', '=', key)
    .where('status', '!=', 'succeeded')
    .execute();
  if (result.status === 'succeeded')
    await settlePayment(app, {
      gateway,
      gatewayPaymentId: result.gatewayPaymentId,
      invoiceId: invoice.id,
      result,
    });
  return result;
}

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * An invoice was paid (once: the open -> paid change is conditional), committed: by a card,
     * PayPal or an admin marking a bank transfer. Referrals credit the referrer their share.
     */
    'invoice.paid': After<{
      invoiceId: number;
      userId: number;
      number: string;
      totalMinor: number;
      currency: string;
    }>;
  }
}

/**
 * Writes the plan in force, and tells the panel's cache of signed-in callers (the header's plan
 * and "Upgrade to Pro" come from it). Told again once the change is committed where it matters
 * most (`settlePayment`): a request resolved between this write and the commit could otherwise
 * keep the old plan for the cache's 30 s.
 */
export async function setUsersPlan(
  app: FastifyInstance,
  trx: Trx,
  userId: number,
  planId: number,
  at: string,
) {
  await trx
    .updateTable('users')
    .set({ plan_id: planId, updated_at: at })
    .where('id', '=', userId)
    .execute();
  callerChanges(app.db).user(userId);
}

/** What paying an invoice does to its subscription, in the transaction that marks it paid. */
async function afterPaid(
  app: FastifyInstance,
  trx: Trx,
  invoice: InvoiceRow,
  at: string,
): Promise<void> {
  if (invoice.subscription_id === null) return;
  const sub = await trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', invoice.subscription_id)
    .executeTakeFirst();
  if (!sub) return;
  if (invoice.purpose === 'subscribe') {
    if (sub.status !== 'incomplete') return;
    await trx
      .updateTable('subscriptions')
      .set({
        status: 'active',
        current_period_start: invoice.period_start,
        current_period_end: invoice.period_end,
        dunning_step: 0,
        updated_at: at,
      })
      .where('id', '=', sub.id)
      .execute();
    // The user's other live subscription (the Free one) ends: one plan at a time.
    await trx
      .updateTable('subscriptions')
      .set({ status: 'canceled', canceled_at: at, updated_at: at })
      .where('user_id', '=', sub.user_id)
      .where('id', '!=', sub.id)
      .where('status', 'in', ['active', 'past_due', 'unpaid'])
      .execute();
    await setUsersPlan(app, trx, sub.user_id, sub.plan_id, at);
  } else if (invoice.purpose === 'upgrade') {
    if (sub.pending_invoice_id !== invoice.id || sub.pending_plan_id === null) return;
    await trx
      .updateTable('subscriptions')
      .set({
        plan_id: sub.pending_plan_id,
        interval: sub.pending_interval ?? sub.interval,
        // In the same interval the period stays (the invoice ran from the upgrade to its end).
        current_period_start:
          invoice.period_end === sub.current_period_end
            ? sub.current_period_start
            : invoice.period_start,
        current_period_end: invoice.period_end,
        pending_plan_id: null,
        pending_interval: null,
        pending_invoice_id: null,
        scheduled_plan_id: null,
        scheduled_interval: null,
        updated_at: at,
      })
      .where('id', '=', sub.id)
      .execute();
    // An upgrade in another interval starts a new period: the old one is not renewed.
    await setUsersPlan(app, trx, sub.user_id, sub.pending_plan_id, at);
  } else if (invoice.purpose === 'renewal') {
    const revived = sub.status === 'past_due' || sub.status === 'unpaid';
    await trx
      .updateTable('subscriptions')
      .set({
        status: revived ? 'active' : sub.status,
        dunning_step: 0,
        updated_at: at,
      })
      .where('id', '=', sub.id)
      .execute();
    if (revived && sub.status === 'unpaid')
      await setUsersPlan(app, trx, sub.user_id, sub.plan_id, at);
  }
}

/**
 * A payment's outcome, as its gateway confirmed it (server-side: a retrieved payment, or an
 * admin's mark): the attempt's row follows it, and a success pays the invoice and activates,
 * upgrades or revives its subscription. Idempotent: a second call for the same payment finds
 * the attempt and the invoice as the first left them and changes nothing.
 */
export async function settlePayment(
  app: FastifyInstance,
  payload: SettledPayment,
): Promise<{ paid: boolean }> {
  const { result } = payload;
  const at = stamp(app);
  const attempt = payload.gatewayPaymentId
    ? await app.db
        .selectFrom('payments')
        .selectAll()
        .where('gateway', '=', payload.gateway)
        .where('gateway_payment_id', '=', payload.gatewayPaymentId)
        .orderBy('id', 'desc')
        .executeTakeFirst()
    : undefined;
  const invoiceId = attempt?.invoice_id ?? payload.invoiceId;
  if (invoiceId === null || invoiceId === undefined) return { paid: false };
  const settled = await app.db.transaction().execute(async (trx) => {
    if (attempt && attempt.status !== 'succeeded')
      await trx
        .updateTable('payments')
        .set({
          status: result.status,
          error_code: result.errorCode ?? null,
          message: result.message ?? null,
          updated_at: at,
        })
        .where('id', '=', attempt.id)
        .where('status', '!=', 'succeeded')
        .execute();
    if (result.status !== 'succeeded') return { paid: false, invoice: null };
    const invoice = await trx
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', invoiceId)
      .executeTakeFirst();
    if (!invoice || invoice.kind !== 'invoice') return { paid: false, invoice: null };
    if (result.currency !== undefined && result.currency !== invoice.currency) {
      app.log.warn(
        { invoiceId, currency: result.currency },
        'billing: a payment in another currency than its invoice was not applied',
      );
      return { paid: false, invoice: null };
    }
    // Less than the invoice asks is not its payment (a tampered or partial amount).
    if (result.amountMinor !== undefined && result.amountMinor < Number(invoice.total_minor)) {
      app.log.warn(
        { invoiceId, amountMinor: result.amountMinor },
        'billing: a payment for less than its invoice was not applied',
      );
      return { paid: false, invoice: null };
    }
    const paid = await trx
      .updateTable('invoices')
      .set({ status: 'paid', paid_at: at })
      .where('id', '=', invoiceId)
      .where('status', '=', 'open')
      .returningAll()
      .executeTakeFirst();
    if (!paid) return { paid: false, invoice: null };
    await afterPaid(app, trx, paid, at);
    return { paid: true, invoice: paid };
  });
  const { invoice } = settled;
  if (invoice) {
    // Committed: the plan the cache of callers reads is the new one from here on.
    callerChanges(app.db).user(invoice.user_id);
    await app.events.emit('invoice.paid', {
      invoiceId: invoice.id,
      userId: invoice.user_id,
      number: invoice.number ?? String(invoice.id),
      totalMinor: Number(invoice.total_minor),
      currency: invoice.currency,
    });
  }
  return { paid: settled.paid };
}

/** The manual attempt still waiting for an invoice's transfer, if any. */
export function processingManualAttempt(app: FastifyInstance, invoiceId: number) {
  return app.db
    .selectFrom('payments')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('gateway', '=', 'manual')
    .where('status', '=', 'processing')
    .where('gateway_payment_id', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function attemptsOf(app: FastifyInstance, invoiceId: number): Promise<number> {
  const row = await app.db
    .selectFrom('payments')
    .select((eb) => eb.fn.max<number | null>('attempt').as('n'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** An admin saw the bank transfer arrive: the same path as a gateway's confirmation. */
export async function markInvoicePaid(
  app: FastifyInstance,
  invoice: InvoiceRow,
  bankReference: string,
): Promise<void> {
  if (invoice.kind !== 'invoice') throw new HttpError(409, 'A credit note is not paid');
  if (invoice.status !== 'open')
    throw new HttpError(409, `Invoice ${invoice.number ?? invoice.id} is ${invoice.status}`);
  let pending = await processingManualAttempt(app, invoice.id);
  if (!pending) {
    // Paid by transfer although it was to be collected otherwise: a manual attempt records it.
    await chargeInvoice(app, invoice, 'manual', (await attemptsOf(app, invoice.id)) + 1, false);
    pending = await processingManualAttempt(app, invoice.id);
  }
  if (!pending?.gateway_payment_id) throw new HttpError(409, 'No bank transfer to mark paid');
  const rail = await manualGateway(app);
  const result = await rail.markPaid({
    gatewayPaymentId: pending.gateway_payment_id,
    bankReference,
    paidAt: new Date(app.services.clock()),
  });
  await settlePayment(app, {
    gateway: 'manual',
    gatewayPaymentId: pending.gateway_payment_id,
    invoiceId: invoice.id,
    result,
  });
}

/** An open invoice is cancelled: its transfers fail, an unpaid new subscription ends. */
export async function voidInvoice(app: FastifyInstance, invoice: InvoiceRow): Promise<void> {
  if (invoice.kind !== 'invoice') throw new HttpError(409, 'A credit note cannot be voided');
  if (invoice.status !== 'open')
    throw new HttpError(409, `Invoice ${invoice.number ?? invoice.id} is ${invoice.status}`);
  await voidOpenInvoice(app, invoice.id);
}

/** Voids an open invoice (admins, expiry, a replaced upgrade); false when it was not open. */
export async function voidOpenInvoice(app: FastifyInstance, invoiceId: number): Promise<boolean> {
  const at = stamp(app);
  const voided = await app.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('invoices')
      .set({ status: 'void', voided_at: at })
      .where('id', '=', invoiceId)
      .where('status', '=', 'open')
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    await trx
      .updateTable('payments')
      .set({
        status: 'failed',
        error_code: 'canceled',
        message: 'The invoice was voided',
        updated_at: at,
      })
      .where('invoice_id', '=', invoiceId)
      .where('status', 'in', ['processing', 'requires_action'])
      .execute();
    await trx
      .updateTable('manual_payments')
      .set({ status: 'failed' })
      .where('invoice_id', '=', String(invoiceId))
      .where('status', '=', 'processing')
      .execute();
    if (row.subscription_id !== null) {
      if (row.purpose === 'subscribe')
        await trx
          .updateTable('subscriptions')
          .set({ status: 'incomplete_expired', updated_at: at })
          .where('id', '=', row.subscription_id)
          .where('status', '=', 'incomplete')
          .execute();
      if (row.purpose === 'upgrade')
        await trx
          .updateTable('subscriptions')
          .set({
            pending_plan_id: null,
            pending_interval: null,
            pending_invoice_id: null,
            updated_at: at,
          })
          .where('id', '=', row.subscription_id)
          .where('pending_invoice_id', '=', invoiceId)
          .execute();
    }
    return row;
  });
  return voided !== null;
}

/** "12.00 USD". */
export const money = (minor: number, currency: string) =>
  `${minorToDecimal(minor, currency)} ${currency}`;
