/**
 * The subscription state machine (research business-and-scale 2.2): subscribe (incomplete until
 * its first invoice is paid), upgrade (prorated, charged now, switched once paid), downgrade (at
 * the period's end), cancel (at the period's end), coupons. users.plan_id follows a subscription
 * only when it becomes active or ends (serverCharge.ts, serverJobs.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../server/db/dialect';
import { HttpError, badRequest, fieldError, notFound } from '../../server/http/errors';
import { type DiscountTerms, discountFor } from '../coupons/api';
import { type RedeemRefusal, redeemCoupon } from '../coupons/serverApi';
import type { PaymentResult } from '../payments/serverApi';
import type { Plan } from '../plans/api';
import { planById } from '../plans/serverApi';
import { addInterval, priceFor, prorate } from './arithmetic';
import { FREE_PLAN_ID, type PaymentIntent } from './schemas';
import { chargeInvoice, setUsersPlan, settlePayment, stamp, voidOpenInvoice } from './serverCharge';
import { CARD_NOT_SET_UP, cardGateways, retrieveCard, stripeKey } from './serverCollect';
import { type LineInput, type Trx, createDraft, finalizeIn } from './serverInvoices';
import { subscriptionRecord } from './serverRecords';
import { type BillingSettings, billingSettings } from './serverSettings';
import type { BillingInterval, InvoiceRow, PayType, SubscriptionRow } from './serverTables';

/** A new subscription's first invoice waits this long for its payment. */
export const INCOMPLETE_HOURS = 23;
const HOUR = 3_600_000;

export const LIVE = ['incomplete', 'active', 'past_due', 'unpaid'] as const;

/** The user's live subscription (newest), if any. */
export function liveSubscription(app: FastifyInstance, userId: number) {
  return app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', [...LIVE])
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function planName(app: FastifyInstance, planId: number): Promise<string> {
  return (await planById(app.db, planId))?.name ?? `Plan #${planId}`;
}

export async function subscriptionOut(app: FastifyInstance, row: SubscriptionRow) {
  return subscriptionRecord(row, await planName(app, row.plan_id));
}

const intervalWords = (interval: BillingInterval) => (interval === 'year' ? 'annual' : 'monthly');
const day = (iso: string) => iso.slice(0, 10);

/** The coupon's discount on an invoice of the subscription, while it has periods left. */
export function couponDiscount(
  sub: SubscriptionRow,
  subtotalMinor: number,
  currency: string,
): { minor: number; label: string | null; spends: boolean } {
  if (!sub.coupon_terms || sub.coupon_periods_left === 0)
    return { minor: 0, label: null, spends: false };
  let minor = 0;
  try {
    minor = discountFor(JSON.parse(sub.coupon_terms) as DiscountTerms, subtotalMinor, currency);
  } catch {
    minor = 0; // A fixed coupon in another currency takes nothing off.
  }
  return { minor, label: `Coupon ${sub.coupon_code ?? ''}`.trim(), spends: true };
}

/** Counts an invoice against the coupon's periods (in the invoice's transaction). */
async function spendCoupon(trx: Trx, sub: SubscriptionRow, at: string) {
  if (sub.coupon_periods_left === null || sub.coupon_periods_left <= 0) return;
  await trx
    .updateTable('subscriptions')
    .set({ coupon_periods_left: sub.coupon_periods_left - 1, updated_at: at })
    .where('id', '=', sub.id)
    .execute();
}

export interface InvoiceSpec {
  purpose: 'subscribe' | 'renewal' | 'upgrade';
  planId: number;
  interval: BillingInterval;
  lines: LineInput[];
  periodStart: string;
  periodEnd: string;
  dueAt: string;
}

/** Draft, discount, finalize: an open invoice of a subscription, in the caller's transaction. */
export async function openInvoiceIn(
  trx: Trx,
  sub: SubscriptionRow,
  spec: InvoiceSpec,
  settings: BillingSettings,
  at: string,
): Promise<InvoiceRow> {
  const subtotal = spec.lines.reduce((a, l) => a + l.amountMinor, 0);
  const discount = couponDiscount(sub, Math.max(0, subtotal), settings.currency);
  const id = await createDraft(
    trx,
    {
      userId: sub.user_id,
      subscriptionId: sub.id,
      purpose: spec.purpose,
      planId: spec.planId,
      interval: spec.interval,
      currency: settings.currency,
      lines: spec.lines,
      discountMinor: discount.minor,
      discountLabel: discount.label,
      periodStart: spec.periodStart,
      periodEnd: spec.periodEnd,
      dueAt: spec.dueAt,
    },
    at,
  );
  if (discount.spends) await spendCoupon(trx, sub, at);
  return finalizeIn(trx, id, at, settings);
}

const planLine = (plan: Plan, interval: BillingInterval, start: string, end: string) => {
  const price = priceFor(plan, interval);
  return {
    description: `${plan.name} (${intervalWords(interval)}), ${day(start)} to ${day(end)}`,
    quantity: 1,
    unitMinor: price,
    amountMinor: price,
  };
};

async function offeredPlan(app: FastifyInstance, planId: number): Promise<Plan> {
  const plan = await planById(app.db, planId);
  if (!plan || plan.kind !== 'main' || !plan.active)
    throw fieldError('plan_id', `No plan #${planId} is offered`);
  return plan;
}

/** What the browser needs to pay an invoice (from its latest attempt). */
export async function paymentIntentOf(
  app: FastifyInstance,
  invoice: InvoiceRow,
  result?: PaymentResult,
): Promise<PaymentIntent> {
  const latest = await app.db
    .selectFrom('payments')
    .selectAll()
    .where('invoice_id', '=', invoice.id)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const gateway = latest?.gateway ?? 'manual';
  // A card or PayPal payment under way: what its gateway says now (the secret Stripe.js confirms
  // with, PayPal's approve page), and a payment the browser finished is settled here, by the
  // server's own look, never on the browser's word.
  if (
    !result &&
    latest &&
    latest.gateway !== 'manual' &&
    latest.gateway_payment_id &&
    invoice.status === 'open' &&
    latest.status !== 'failed'
  ) {
    result = await retrieveCard(app, latest.gateway, latest.gateway_payment_id).catch(
      () => undefined,
    );
    if (result?.status === 'succeeded' || result?.status === 'failed')
      await settlePayment(app, {
        gateway: latest.gateway,
        gatewayPaymentId: latest.gateway_payment_id,
        invoiceId: invoice.id,
        result,
      });
  }
  return {
    invoice_id: invoice.id,
    number: invoice.number,
    plan_id: invoice.plan_id,
    amount_minor: Number(invoice.total_minor),
    currency: invoice.currency,
    gateway,
    status: result?.status ?? latest?.status ?? null,
    reference: latest?.gateway === 'manual' ? latest.gateway_payment_id : null,
    instructions: result?.message ?? latest?.message ?? null,
    client_secret: result?.clientSecret ?? null,
    approve_url: result?.approveUrl ?? null,
    publishable_key: gateway === 'stripe' && result?.clientSecret ? await stripeKey(app) : null,
  };
}

export interface SubscribeInput {
  planId: number;
  interval: BillingInterval;
  payType: PayType;
}

export type SubscribeOutcome = {
  change: 'subscribed' | 'upgrade' | 'downgrade' | 'free';
  subscription: SubscriptionRow;
  invoice: InvoiceRow | null;
  result?: PaymentResult;
};

async function reload(app: FastifyInstance, id: number): Promise<SubscriptionRow> {
  return app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** An incomplete subscription is replaced: its invoice is voided, it ends expired. */
async function dropIncomplete(app: FastifyInstance, sub: SubscriptionRow) {
  const open = await app.db
    .selectFrom('invoices')
    .select('id')
    .where('subscription_id', '=', sub.id)
    .where('status', '=', 'open')
    .execute();
  for (const inv of open) await voidOpenInvoice(app, inv.id);
  await app.db
    .updateTable('subscriptions')
    .set({ status: 'incomplete_expired', updated_at: stamp(app) })
    .where('id', '=', sub.id)
    .where('status', '=', 'incomplete')
    .execute();
}

/** Said to the second of two subscribe requests racing for the same account. */
export const SUBSCRIBE_RACE =
  'A subscription was just started on this account: pay its invoice, or try again to replace it';

/**
 * Creating a subscription: the user's row is locked (PostgreSQL; SQLite runs one transaction at
 * a time) and the live one looked for again, so of two requests at once only the first creates
 * one and the second is refused with SUBSCRIBE_RACE.
 */
async function claimUser(trx: Trx, userId: number, expected: number | undefined) {
  if (isPostgres(trx as unknown as Kysely<unknown>))
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const now = await trx
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', [...LIVE])
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (now?.id !== expected) throw new HttpError(409, SUBSCRIBE_RACE);
}

/** POST subscription/users/{uid}. */
export async function subscribe(
  app: FastifyInstance,
  userId: number,
  input: SubscribeInput,
): Promise<SubscribeOutcome> {
  const at = stamp(app);
  const plan = await offeredPlan(app, input.planId);
  const settings = await billingSettings(app);
  const price = priceFor(plan, input.interval);
  if (price > 0 && input.payType !== 'manual') {
    const rails = await cardGateways(app);
    const wanted = input.payType === 'card' ? 'stripe' : 'paypal';
    if (!rails.includes(wanted)) throw new HttpError(409, CARD_NOT_SET_UP);
  }
  if (price > 0 && input.payType === 'manual' && !settings.enabledGateways.includes('manual'))
    throw new HttpError(409, 'Bank transfer is not offered on this panel');
  let live = await liveSubscription(app, userId);
  if (live?.status === 'incomplete') {
    await dropIncomplete(app, live);
    live = undefined;
  }
  const paidLive = live && live.plan_id !== FREE_PLAN_ID ? live : undefined;

  if (input.planId === FREE_PLAN_ID) {
    if (paidLive) {
      await app.db
        .updateTable('subscriptions')
        .set({ cancel_at_period_end: 1, canceled_at: at, updated_at: at })
        .where('id', '=', paidLive.id)
        .execute();
      return { change: 'free', subscription: await reload(app, paidLive.id), invoice: null };
    }
    if (live) throw new HttpError(409, 'You are on the Free plan already');
    const row = await app.db.transaction().execute(async (trx) => {
      await claimUser(trx, userId, undefined);
      const created = await trx
        .insertInto('subscriptions')
        .values(newSubscription(userId, FREE_PLAN_ID, input.interval, 'active', 'manual', at))
        .returningAll()
        .executeTakeFirstOrThrow();
      await setUsersPlan(app, trx, userId, FREE_PLAN_ID, at);
      return created;
    });
    return { change: 'free', subscription: row, invoice: null };
  }

  if (paidLive) return changePlan(app, paidLive, plan, input, settings, at);

  const previous = await app.db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const end = addInterval(at, input.interval).toISOString();
  const { sub, invoice } = await app.db.transaction().execute(async (trx) => {
    await claimUser(trx, userId, undefined);
    const sub = await trx
      .insertInto('subscriptions')
      .values({
        ...newSubscription(userId, plan.id, input.interval, 'incomplete', input.payType, at),
        previous_subscription_id: previous?.id ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const invoice = await openInvoiceIn(
      trx,
      sub,
      {
        purpose: 'subscribe',
        planId: plan.id,
        interval: input.interval,
        lines: [planLine(plan, input.interval, at, end)],
        periodStart: at,
        periodEnd: end,
        dueAt: new Date(Date.parse(at) + INCOMPLETE_HOURS * HOUR).toISOString(),
      },
      settings,
      at,
    );
    return { sub, invoice };
  });
  const result = await chargeInvoice(app, invoice, input.payType, 1, false);
  return {
    change: 'subscribed',
    subscription: await reload(app, sub.id),
    invoice: await invoiceById(app, invoice.id),
    result,
  };
}

export function invoiceById(app: FastifyInstance, id: number): Promise<InvoiceRow> {
  return app.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function newSubscription(
  userId: number,
  planId: number,
  interval: BillingInterval,
  status: 'incomplete' | 'active',
  payType: PayType,
  at: string,
) {
  return {
    user_id: userId,
    plan_id: planId,
    interval,
    status,
    pay_type: payType,
    current_period_start: status === 'active' ? at : null,
    current_period_end: null,
    cancel_at_period_end: 0,
    canceled_at: null,
    previous_subscription_id: null,
    pending_plan_id: null,
    pending_interval: null,
    pending_invoice_id: null,
    scheduled_plan_id: null,
    scheduled_interval: null,
    coupon_id: null,
    coupon_redemption_id: null,
    coupon_code: null,
    coupon_terms: null,
    coupon_periods_left: null,
    dunning_step: 0,
    created_at: at,
    updated_at: at,
  } as const;
}

/** Higher plan (or the same one, monthly to annual): an upgrade. */
export const isUpgrade = (
  current: Plan,
  currentInterval: BillingInterval,
  next: Plan,
  nextInterval: BillingInterval,
) =>
  next.monthly_price > current.monthly_price ||
  (next.id === current.id && currentInterval === 'month' && nextInterval === 'year');

async function changePlan(
  app: FastifyInstance,
  live: SubscriptionRow,
  plan: Plan,
  input: SubscribeInput,
  settings: BillingSettings,
  at: string,
): Promise<SubscribeOutcome> {
  const current = await planById(app.db, live.plan_id);
  if (!current) throw new HttpError(409, 'Your current plan no longer exists: contact support');
  if (plan.id === live.plan_id && input.interval === live.interval) {
    if (live.cancel_at_period_end || live.scheduled_plan_id !== null) {
      // Subscribing again to the plan one is on undoes a cancel or a scheduled downgrade.
      await app.db
        .updateTable('subscriptions')
        .set({
          cancel_at_period_end: 0,
          canceled_at: null,
          scheduled_plan_id: null,
          scheduled_interval: null,
          updated_at: at,
        })
        .where('id', '=', live.id)
        .execute();
      return { change: 'subscribed', subscription: await reload(app, live.id), invoice: null };
    }
    throw new HttpError(409, `You are on ${plan.name} (${intervalWords(input.interval)}) already`);
  }
  if (live.status !== 'active')
    throw new HttpError(409, 'Pay the open invoice of your subscription before changing plans');
  if (!isUpgrade(current, live.interval, plan, input.interval)) {
    await app.db
      .updateTable('subscriptions')
      .set({
        scheduled_plan_id: plan.id,
        scheduled_interval: input.interval,
        cancel_at_period_end: 0,
        canceled_at: null,
        updated_at: at,
      })
      .where('id', '=', live.id)
      .execute();
    return { change: 'downgrade', subscription: await reload(app, live.id), invoice: null };
  }
  if (!live.current_period_start || !live.current_period_end)
    throw new HttpError(409, 'Your subscription has no period to prorate');
  if (live.pending_invoice_id !== null) await voidOpenInvoice(app, live.pending_invoice_id);
  const fresh = await reload(app, live.id);
  const p = upgradeProration(fresh, current, plan, input.interval, at);
  const invoice = await app.db.transaction().execute(async (trx) => {
    const lines: LineInput[] = [
      {
        description: `${plan.name} (${intervalWords(input.interval)}), ${day(p.periodStart)} to ${day(p.periodEnd)}`,
        quantity: 1,
        unitMinor: p.chargeMinor,
        amountMinor: p.chargeMinor,
      },
    ];
    if (p.creditMinor > 0)
      lines.push({
        description: `Unused time on ${current.name} (${intervalWords(fresh.interval)}) from ${day(at)}`,
        quantity: 1,
        unitMinor: -p.creditMinor,
        amountMinor: -p.creditMinor,
      });
    const invoice = await openInvoiceIn(
      trx,
      fresh,
      {
        purpose: 'upgrade',
        planId: plan.id,
        interval: input.interval,
        lines,
        periodStart: p.periodStart === fresh.current_period_start ? at : p.periodStart,
        periodEnd: p.periodEnd,
        dueAt: new Date(Date.parse(at) + INCOMPLETE_HOURS * HOUR).toISOString(),
      },
      settings,
      at,
    );
    await trx
      .updateTable('subscriptions')
      .set({
        pending_plan_id: plan.id,
        pending_interval: input.interval,
        pending_invoice_id: invoice.id,
        updated_at: at,
      })
      .where('id', '=', fresh.id)
      .execute();
    return invoice;
  });
  // An upgrade of nothing to pay (a coupon covered it) is paid at once.
  const result = await chargeInvoice(app, invoice, fresh.pay_type, 1, false);
  return {
    change: 'upgrade',
    subscription: await reload(app, live.id),
    invoice: await invoiceById(app, invoice.id),
    result,
  };
}

/** The proration of moving `sub` to `plan` now. */
export function upgradeProration(
  sub: SubscriptionRow,
  current: Plan,
  plan: Plan,
  interval: BillingInterval,
  at: string,
) {
  return prorate({
    oldPriceMinor: priceFor(current, sub.interval),
    newPriceMinor: priceFor(plan, interval),
    periodStart: sub.current_period_start ?? at,
    periodEnd: sub.current_period_end ?? at,
    at,
    sameInterval: interval === sub.interval,
    newInterval: interval,
  });
}

/** DELETE subscription/users/{uid}. */
export async function cancel(app: FastifyInstance, userId: number): Promise<SubscriptionRow> {
  const at = stamp(app);
  const live = await liveSubscription(app, userId);
  if (!live) throw notFound('No subscription to cancel');
  if (live.status === 'incomplete') {
    await dropIncomplete(app, live);
    return reload(app, live.id);
  }
  if (live.plan_id === FREE_PLAN_ID)
    throw new HttpError(409, 'The Free plan has nothing to cancel');
  if (live.cancel_at_period_end) throw new HttpError(409, 'Your subscription ends already');
  if (live.pending_invoice_id !== null) await voidOpenInvoice(app, live.pending_invoice_id);
  await app.db
    .updateTable('subscriptions')
    .set({
      cancel_at_period_end: 1,
      canceled_at: at,
      scheduled_plan_id: null,
      scheduled_interval: null,
      updated_at: at,
    })
    .where('id', '=', live.id)
    .execute();
  return reload(app, live.id);
}

const COUPON_STATUS: Record<RedeemRefusal, number> = {
  unknown: 404,
  inactive: 404,
  expired: 404,
  exhausted: 409,
  already: 409,
  plan: 400,
};

/** PATCH apply-coupon/users/{uid}?name=: discounts the next invoices by its duration. */
export async function applyCoupon(
  app: FastifyInstance,
  userId: number,
  code: string,
): Promise<SubscriptionRow> {
  const at = stamp(app);
  const live = await liveSubscription(app, userId);
  if (!live || live.plan_id === FREE_PLAN_ID)
    throw new HttpError(409, 'Subscribe to a paid plan before applying a coupon');
  if (live.coupon_id !== null && live.coupon_periods_left !== 0)
    throw new HttpError(409, `The coupon ${live.coupon_code ?? ''} is applied already`);
  const planId = live.pending_plan_id ?? live.plan_id;
  let refusal: { status: number; message: string } | null = null;
  try {
    await app.db.transaction().execute(async (trx) => {
      const r = await redeemCoupon(trx, { code, userId, planId, now: at });
      if (!r.ok) {
        refusal = { status: COUPON_STATUS[r.reason], message: r.message };
        return;
      }
      const c = r.coupon;
      const terms: DiscountTerms = {
        kind: c.kind,
        percent_off: c.percent_off,
        amount_off: c.amount_off,
        currency: c.currency,
      };
      await trx
        .updateTable('subscriptions')
        .set({
          coupon_id: c.id,
          coupon_redemption_id: r.redemptionId,
          coupon_code: c.code,
          coupon_terms: JSON.stringify(terms),
          coupon_periods_left:
            c.duration === 'once' ? 1 : c.duration === 'recurring' ? c.duration_periods : null,
          updated_at: at,
        })
        .where('id', '=', live.id)
        .execute();
    });
  } catch (error) {
    const codeOf = (error as { code?: unknown } | null)?.code;
    if (codeOf === '23505' || codeOf === 'SQLITE_CONSTRAINT_UNIQUE')
      throw new HttpError(409, `You have redeemed the coupon ${code.trim()} already`);
    throw error;
  }
  const refused = refusal as { status: number; message: string } | null;
  if (refused) {
    if (refused.status === 400) throw badRequest(refused.message, { name: refused.message });
    throw new HttpError(refused.status, refused.message);
  }
  return reload(app, live.id);
}

/** What the next renewal will ask (plan, interval, discount), if one will come. */
export async function nextInvoiceOf(
  app: FastifyInstance,
  sub: SubscriptionRow,
  settings: BillingSettings,
) {
  if (sub.cancel_at_period_end || !sub.current_period_end || sub.plan_id === FREE_PLAN_ID)
    return null;
  if (sub.status !== 'active' && sub.status !== 'past_due') return null;
  const planId = sub.scheduled_plan_id ?? sub.plan_id;
  const interval = sub.scheduled_interval ?? sub.interval;
  const plan = await planById(app.db, planId);
  if (!plan) return null;
  const amount = priceFor(plan, interval);
  const discount = couponDiscount(sub, amount, settings.currency).minor;
  return {
    at: sub.current_period_end,
    plan_id: planId,
    interval,
    amount_minor: amount - discount,
    discount_minor: discount,
    currency: settings.currency,
  };
}
