/**
 * Billing's scheduled work (README "Jobs and schedules"): a sweep every five minutes finds what
 * is due by the panel's clock and does it, each step safe to repeat:
 * - expiry: an incomplete subscription whose first invoice went unpaid for 23 hours expires;
 * - period ends: a subscription cancelled at its period's end is canceled, the user back on Free;
 * - renewals: each due subscription once per period (`billing.renew`, keyed by subscription and
 *   period; the invoice is unique per subscription and period start, so a second run or a
 *   second panel makes none), a scheduled downgrade taking effect with the new period;
 * - dunning: an unpaid renewal moves the subscription past_due (the user is mailed, card and
 *   PayPal retried on the settings' days), then unpaid after the grace days (the user is back on
 *   Free; servers are never touched). Paying the invoice makes it active again.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerChanges } from '../../server/auth/callerCache';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import { planById } from '../plans/serverApi';
import { addInterval, priceFor } from './arithmetic';
import { FREE_PLAN_ID, TRIAL_DAYS, TRIAL_PLAN_ID } from './schemas';
import {
  chargeInvoice,
  money,
  setUsersPlan,
  settlePayment,
  stamp,
  voidOpenInvoice,
} from './serverCharge';
import { isUniqueViolation } from './serverInvoices';
import { billingSettings } from './serverSettings';
import { INCOMPLETE_HOURS, openInvoiceIn } from './serverSubscriptions';
import type { InvoiceRow, SubscriptionRow } from './serverTables';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function mailUser(app: FastifyInstance, userId: number, subject: string, text: string) {
  const user = await app.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return;
  try {
    await app.services.mailer.send({ to: user.email, subject, text });
  } catch (error) {
    app.log.warn({ err: error, userId }, 'billing: a mail to the user was not queued');
  }
}

const link = (app: FastifyInstance, path: string) =>
  `${(app.config.publicUrl ?? '').replace(/\/$/, '')}${path}`;

/** Incomplete for 23 hours: expired, its invoice voided. */
export async function expireIncomplete(app: FastifyInstance): Promise<number> {
  const before = new Date(app.services.clock() - INCOMPLETE_HOURS * HOUR).toISOString();
  const due = await app.db
    .selectFrom('subscriptions')
    .select('id')
    .where('status', '=', 'incomplete')
    .where('created_at', '<=', before)
    .execute();
  for (const { id } of due) {
    const open = await app.db
      .selectFrom('invoices')
      .select('id')
      .where('subscription_id', '=', id)
      .where('status', '=', 'open')
      .execute();
    for (const inv of open) await voidOpenInvoice(app, inv.id);
    await app.db
      .updateTable('subscriptions')
      .set({ status: 'incomplete_expired', updated_at: stamp(app) })
      .where('id', '=', id)
      .where('status', '=', 'incomplete')
      .execute();
  }
  return due.length;
}

/** Cancelled at the period's end, and the end has come: canceled, the user back on Free. */
export async function endCanceled(app: FastifyInstance): Promise<number> {
  const at = stamp(app);
  const due = await app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', 'in', ['active', 'past_due', 'unpaid'])
    .where('cancel_at_period_end', '=', 1)
    .where('current_period_end', '<=', at)
    .execute();
  for (const sub of due) {
    for (const inv of await openInvoicesOf(app, sub.id)) await voidOpenInvoice(app, inv.id);
    await app.db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('subscriptions')
        .set({ status: 'canceled', updated_at: at })
        .where('id', '=', sub.id)
        .where('status', 'in', ['active', 'past_due', 'unpaid'])
        .returning('id')
        .executeTakeFirst();
      if (ended) await setUsersPlan(app, trx, sub.user_id, FREE_PLAN_ID, at);
    });
    await mailUser(
      app,
      sub.user_id,
      'Your subscription has ended',
      `Your subscription ended on ${at.slice(0, 10)}: your account is on the Free plan now.\n\nSubscribe again at ${link(app, '/pricing')}\n`,
    );
  }
  return due.length;
}

const openInvoicesOf = (app: FastifyInstance, subscriptionId: number) =>
  app.db
    .selectFrom('invoices')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'open')
    .where('kind', '=', 'invoice')
    .execute();

/** Subscriptions whose period has ended and which go on: due for renewal. */
export function dueForRenewal(app: FastifyInstance) {
  return app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', 'in', ['active', 'past_due'])
    .where('cancel_at_period_end', '=', 0)
    .where('plan_id', '!=', FREE_PLAN_ID)
    .where('current_period_end', 'is not', null)
    .where('current_period_end', '<=', stamp(app))
    .execute();
}

/**
 * Renews one subscription for the period after its current one: the invoice (once: unique per
 * subscription and period start) and its first attempt (`inv_<id>_att_1`). Safe to run again:
 * gives the period's invoice either way, or null when nothing is due.
 */
export async function renewSubscription(
  app: FastifyInstance,
  subscriptionId: number,
): Promise<InvoiceRow | null> {
  const at = stamp(app);
  const sub = await app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  if (!sub?.current_period_end) return null;
  const periodStart = sub.current_period_end;
  if (
    (sub.status !== 'active' && sub.status !== 'past_due') ||
    sub.cancel_at_period_end ||
    periodStart > at
  )
    return existingRenewal(app, sub);
  const planId = sub.scheduled_plan_id ?? sub.plan_id;
  const interval = sub.scheduled_interval ?? sub.interval;
  const plan = await planById(app.db, planId);
  if (!plan) return null;
  const settings = await billingSettings(app);
  const periodEnd = addInterval(periodStart, interval).toISOString();
  const price = priceFor(plan, interval);
  let invoice: InvoiceRow | null;
  try {
    invoice = await app.db.transaction().execute(async (trx) => {
      // The period moves on only with its invoice; the guard on the old end makes a second
      // runner's update a no-op (and its insert hits the unique key first).
      const moved = await trx
        .updateTable('subscriptions')
        .set({
          plan_id: planId,
          interval,
          current_period_start: periodStart,
          current_period_end: periodEnd,
          scheduled_plan_id: null,
          scheduled_interval: null,
          updated_at: at,
        })
        .where('id', '=', sub.id)
        .where('current_period_end', '=', periodStart)
        .returningAll()
        .executeTakeFirst();
      if (!moved) return null;
      if (planId !== sub.plan_id) await setUsersPlan(app, trx, sub.user_id, planId, at);
      return openInvoiceIn(
        trx,
        sub,
        {
          purpose: 'renewal',
          planId,
          interval,
          lines: [
            {
              description: `${plan.name} (${interval === 'year' ? 'annual' : 'monthly'}), ${periodStart.slice(0, 10)} to ${periodEnd.slice(0, 10)}`,
              quantity: 1,
              unitMinor: price,
              amountMinor: price,
            },
          ],
          periodStart,
          periodEnd,
          dueAt: periodStart,
        },
        settings,
        at,
      );
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    invoice = null;
  }
  if (!invoice) return existingRenewal(app, sub, periodStart);
  if (Number(invoice.total_minor) === 0) {
    // Nothing to collect (a coupon took it all): paid by the same path as a payment.
    await settlePayment(app, {
      gateway: 'manual',
      gatewayPaymentId: '',
      invoiceId: invoice.id,
      result: { status: 'succeeded', gatewayPaymentId: '', amountMinor: 0 },
    });
    return invoice;
  }
  const result = await chargeInvoice(app, invoice, sub.pay_type, 1, true);
  if (result.status === 'failed') {
    await app.db
      .updateTable('subscriptions')
      .set({ status: 'past_due', updated_at: stamp(app) })
      .where('id', '=', sub.id)
      .where('status', '=', 'active')
      .execute();
    await mailUser(
      app,
      sub.user_id,
      `Payment failed for invoice ${invoice.number}`,
      `We could not collect ${money(Number(invoice.total_minor), invoice.currency)} for invoice ${invoice.number} (${result.message ?? 'the payment failed'}).\n\nPay it at ${link(app, `/payment/${invoice.id}`)}\n`,
    );
  } else if (result.status === 'processing' && sub.pay_type === 'manual') {
    await mailUser(
      app,
      sub.user_id,
      `Invoice ${invoice.number}: your subscription renews`,
      `Your subscription renews for ${periodStart.slice(0, 10)} to ${periodEnd.slice(0, 10)}. ${result.message ?? ''}\n\nThe invoice: ${link(app, `/payment-invoice/${invoice.id}`)}\n`,
    );
  }
  return invoice;
}

async function existingRenewal(app: FastifyInstance, sub: SubscriptionRow, periodStart?: string) {
  const row = await app.db
    .selectFrom('invoices')
    .selectAll()
    .where('subscription_id', '=', sub.id)
    .where('purpose', '=', 'renewal')
    .where('kind', '=', 'invoice')
    .where('period_start', '=', periodStart ?? sub.current_period_start ?? '')
    .executeTakeFirst();
  return row ?? null;
}

/** Past due on the settings' days (card and PayPal tried again), then unpaid after the grace. */
export async function dunning(app: FastifyInstance): Promise<number> {
  const now = app.services.clock();
  const at = new Date(now).toISOString();
  const settings = await billingSettings(app);
  const late = await app.db
    .selectFrom('invoices')
    .innerJoin('subscriptions', 'subscriptions.id', 'invoices.subscription_id')
    .selectAll('invoices')
    .select([
      'subscriptions.status as sub_status',
      'subscriptions.dunning_step',
      'subscriptions.pay_type',
      'subscriptions.plan_id as sub_plan',
    ])
    .where('invoices.status', '=', 'open')
    .where('invoices.kind', '=', 'invoice')
    .where('invoices.purpose', '=', 'renewal')
    .where('invoices.due_at', '<=', at)
    .where('subscriptions.status', 'in', ['active', 'past_due'])
    .execute();
  let moved = 0;
  for (const inv of late) {
    const days = Math.floor((now - Date.parse(inv.due_at ?? at)) / DAY);
    const subId = inv.subscription_id!;
    if (days >= settings.graceDays) {
      const done = await app.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('subscriptions')
          .set({ status: 'unpaid', updated_at: at })
          .where('id', '=', subId)
          .where('status', 'in', ['active', 'past_due'])
          .returning('user_id')
          .executeTakeFirst();
        if (row) await setUsersPlan(app, trx, row.user_id, FREE_PLAN_ID, at);
        return row;
      });
      if (done) {
        moved += 1;
        await mailUser(
          app,
          inv.user_id,
          `Invoice ${inv.number} is unpaid: your account is on the Free plan`,
          `Invoice ${inv.number} (${money(Number(inv.total_minor), inv.currency)}) is still unpaid ${days} days after it was due, so your account is on the Free plan's limits now. Your servers are not touched.\n\nPay it to have your plan back: ${link(app, `/payment/${inv.id}`)}\n`,
        );
      }
      continue;
    }
    const step = settings.dunningDays.filter((d) => d <= days).length;
    if (step <= inv.dunning_step) continue;
    const claimed = await app.db
      .updateTable('subscriptions')
      .set({ status: 'past_due', dunning_step: step, updated_at: at })
      .where('id', '=', subId)
      .where('dunning_step', '=', inv.dunning_step)
      .where('status', 'in', ['active', 'past_due'])
      .returning('id')
      .executeTakeFirst();
    if (!claimed) continue;
    moved += 1;
    if (inv.pay_type !== 'manual') {
      const result = await chargeInvoice(app, inv, inv.pay_type, step + 1, true);
      if (result.status === 'succeeded') continue;
    }
    await mailUser(
      app,
      inv.user_id,
      `Payment overdue: invoice ${inv.number}`,
      `Invoice ${inv.number} (${money(Number(inv.total_minor), inv.currency)}) was due on ${(inv.due_at ?? at).slice(0, 10)} and is not paid yet. Unless it is paid within ${settings.graceDays} days of that, your account moves to the Free plan's limits.\n\nPay it at ${link(app, `/payment/${inv.id}`)}\n`,
    );
  }
  return moved;
}

export const renewJob = defineJob({
  name: 'billing.renew',
  payload: z.object({ subscriptionId: z.number().int(), periodEnd: z.string() }),
  retry: { limit: 3, backoffSeconds: 60 },
  keyed: true,
  async handler({ app }, { subscriptionId }) {
    await renewSubscription(app, subscriptionId);
  },
});

/**
 * One pass over what is due. `inline`: renewals run here (tests, the CLI); else each is a
 * `billing.renew` job keyed by subscription and period.
 */
/**
 * Trials over: an account still on Trial TRIAL_DAYS after it was made goes to Free (a paid plan
 * moved it off Trial before), told by mail; admins and staff have no plan to end.
 */
async function endTrials(app: FastifyInstance): Promise<number> {
  const cutoff = new Date(app.services.clock() - TRIAL_DAYS * 86_400_000).toISOString();
  const due = await app.db
    .selectFrom('users')
    .select('id')
    .where('plan_id', '=', TRIAL_PLAN_ID)
    .where('created_at', '<', cutoff)
    .where('is_admin', '=', 0)
    .where('is_admin_staff', '=', 0)
    .orderBy('id')
    .limit(1_000)
    .execute();
  let ended = 0;
  for (const { id } of due) {
    // Conditional: a plan bought meanwhile, or another panel's sweep, wins.
    const moved = await app.db
      .updateTable('users')
      .set({ plan_id: FREE_PLAN_ID, updated_at: stamp(app) })
      .where('id', '=', id)
      .where('plan_id', '=', TRIAL_PLAN_ID)
      .returning('id')
      .executeTakeFirst();
    if (!moved) continue;
    callerChanges(app.db).user(id);
    ended += 1;
    await mailUser(
      app,
      id,
      'Your trial has ended',
      `Your ${TRIAL_DAYS}-day trial has ended and your account is on the Free plan's limits now. Your servers and sites are not touched.\n\nPick a plan to keep more: ${link(app, '/pricing')}\n`,
    );
  }
  return ended;
}

export async function billingSweep(app: FastifyInstance, options: { inline?: boolean } = {}) {
  const trials = await endTrials(app);
  const expired = await expireIncomplete(app);
  const ended = await endCanceled(app);
  const due = await dueForRenewal(app);
  for (const sub of due) {
    const periodEnd = sub.current_period_end!;
    if (options.inline) await renewSubscription(app, sub.id);
    else
      await app.jobs.enqueue(
        renewJob,
        { subscriptionId: sub.id, periodEnd },
        { key: `billing.renew:${sub.id}:${periodEnd}` },
      );
  }
  const dunned = await dunning(app);
  return { trials, expired, ended, renewals: due.length, dunned };
}

export const sweepJob = defineJob({
  name: 'billing.sweep',
  payload: z.object({}),
  retry: { limit: 0, backoffSeconds: 1 },
  concurrency: 1,
  async handler({ app }) {
    await billingSweep(app);
  },
});

export const billingSchedules = [
  defineSchedule({ name: 'billing.sweep', cron: '*/5 * * * *', job: sweepJob, payload: {} }),
];
