import type { FastifyInstance } from 'fastify';
import { fieldError, notFound } from '../../server/http/errors';
import { defineHandlers, loadedChild } from '../../server/http/handlers';
import { billing, billingAdmin } from './resource';
import { SUBSCRIPTION_TYPES } from './schemas';
import { issueCreditNote, creditedOf, linesOf } from './serverInvoices';
import { markInvoicePaid, stamp, voidInvoice } from './serverCharge';
import { sendInvoicePdf } from './serverPdf';
import { invoiceRecord } from './serverRecords';
import { revenueOverview } from './serverRevenue';
import { type BillingSettings, billingSettings } from './serverSettings';
import { cardGateways } from './serverCollect';
import {
  applyCoupon,
  cancel,
  invoiceById,
  liveSubscription,
  nextInvoiceOf,
  paymentIntentOf,
  planName,
  subscribe,
  subscriptionOut,
} from './serverSubscriptions';
import type { InvoiceRow } from './serverTables';

const nowOf = (app: FastifyInstance) => app.services.clock();

/** Bank transfer when switched on, card and PayPal once their keys are there too. */
async function payTypesOf(app: FastifyInstance, settings: BillingSettings) {
  const rails = await cardGateways(app);
  return [
    ...(settings.enabledGateways.includes('manual') ? (['manual'] as const) : []),
    ...(rails.includes('stripe') ? (['card'] as const) : []),
    ...(rails.includes('paypal') ? (['paypal'] as const) : []),
  ];
}

/** A user's invoice, if `{uid}` owns it (drafts are nobody's to see). */
export function invoiceOfAccount(db: FastifyInstance['db'], uid: number, id: number | string) {
  const n = Number(id);
  if (!Number.isSafeInteger(n)) return Promise.resolve(undefined);
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', n)
    .where('user_id', '=', uid)
    .where('status', '!=', 'draft')
    .executeTakeFirst();
}

async function detailOf(app: FastifyInstance, row: InvoiceRow) {
  const payments = await app.db
    .selectFrom('payments')
    .selectAll()
    .where('invoice_id', '=', row.id)
    .orderBy('id')
    .execute();
  return {
    ...invoiceRecord(row, nowOf(app)),
    lines: await linesOf(app.db, row.id),
    payments: payments.map((p) => ({
      id: p.id,
      gateway: p.gateway,
      gateway_payment_id: p.gateway_payment_id,
      status: p.status,
      amount_minor: Number(p.amount_minor),
      currency: p.currency,
      attempt: Number(p.attempt),
      error_code: p.error_code,
      message: p.message,
      created_at: p.created_at,
    })),
    credited_minor: await creditedOf(app.db, row.id),
  };
}

async function historyOf(app: FastifyInstance, uid: number) {
  const rows = await app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', uid)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return Promise.all(rows.map((r) => subscriptionOut(app, r)));
}

async function usersPlan(app: FastifyInstance, uid: number) {
  const user = await app.db
    .selectFrom('users')
    .select('plan_id')
    .where('id', '=', uid)
    .executeTakeFirst();
  if (!user) throw notFound('No such user');
  return { plan_id: user.plan_id, plan_name: await planName(app, user.plan_id) };
}

function invoicesPage(
  app: FastifyInstance,
  filter: { uid?: number; status?: InvoiceRow['status'] },
  page: number,
  perPage: number,
) {
  let query = app.db.selectFrom('invoices').where('status', '!=', 'draft');
  if (filter.uid !== undefined) query = query.where('user_id', '=', filter.uid);
  if (filter.status) query = query.where('status', '=', filter.status);
  return Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]).then(([rows, count]) => ({
    data: rows.map((r) => invoiceRecord(r, nowOf(app))),
    total: Number(count?.n ?? 0),
  }));
}

export const billingHandlers = defineHandlers(billing, {
  actions: {
    async subscription(ctx) {
      const { app } = ctx;
      const live = await liveSubscription(app, ctx.uid);
      const settings = await billingSettings(app);
      const open = live
        ? await app.db
            .selectFrom('invoices')
            .selectAll()
            .where('subscription_id', '=', live.id)
            .where('status', '=', 'open')
            .where('kind', '=', 'invoice')
            .orderBy('id', 'desc')
            .executeTakeFirst()
        : undefined;
      return {
        ...(await usersPlan(app, ctx.uid)),
        subscription: live ? await subscriptionOut(app, live) : null,
        open_invoice: open ? invoiceRecord(open, nowOf(app)) : null,
        next_invoice: live ? await nextInvoiceOf(app, live, settings) : null,
        history: await historyOf(app, ctx.uid),
        pay_types: await payTypesOf(app, settings),
      };
    },
    async subscribe(ctx) {
      const { app } = ctx;
      const outcome = await subscribe(app, ctx.uid, {
        planId: ctx.query.plan_id,
        interval: SUBSCRIPTION_TYPES[ctx.query.type],
        payType: ctx.query.pay_type,
      });
      return {
        change: outcome.change,
        subscription: await subscriptionOut(app, outcome.subscription),
        invoice: outcome.invoice ? invoiceRecord(outcome.invoice, nowOf(app)) : null,
        payment:
          outcome.invoice && outcome.invoice.status === 'open'
            ? await paymentIntentOf(app, outcome.invoice, outcome.result)
            : null,
      };
    },
    async cancel(ctx) {
      return subscriptionOut(ctx.app, await cancel(ctx.app, ctx.uid));
    },
    async paymentIntent(ctx) {
      const { app } = ctx;
      const pid = ctx.query.pid;
      const invoice = await app.db
        .selectFrom('invoices')
        .selectAll()
        .where('user_id', '=', ctx.uid)
        .where('plan_id', '=', pid)
        .where('status', '=', 'open')
        .where('kind', '=', 'invoice')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (!invoice) throw notFound(`No open invoice for plan #${pid}`);
      return paymentIntentOf(app, invoice);
    },
    async invoices(ctx) {
      return invoicesPage(ctx.app, { uid: ctx.uid }, ctx.query.page, ctx.query.perPage);
    },
    async invoice(ctx) {
      return detailOf(ctx.app, loadedChild(ctx.child));
    },
    invoicePdf: (ctx) => sendInvoicePdf(ctx.app, loadedChild(ctx.child), ctx.reply),
    async applyCoupon(ctx) {
      return subscriptionOut(ctx.app, await applyCoupon(ctx.app, ctx.uid, ctx.query.name));
    },
  },
});

async function adminInvoice(app: FastifyInstance, id: string | number | undefined) {
  const n = Number(id);
  const row = Number.isSafeInteger(n)
    ? await app.db
        .selectFrom('invoices')
        .selectAll()
        .where('id', '=', n)
        .where('status', '!=', 'draft')
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound('No such invoice');
  return row;
}

export const billingAdminHandlers = defineHandlers(billingAdmin, {
  actions: {
    invoicePdf: async (ctx) =>
      sendInvoicePdf(ctx.app, await adminInvoice(ctx.app, ctx.params.id), ctx.reply),
    async userSubscription(ctx) {
      const { app } = ctx;
      const uid = ctx.query.uid;
      const live = await liveSubscription(app, uid);
      const open = await app.db
        .selectFrom('invoices')
        .selectAll()
        .where('user_id', '=', uid)
        .where('status', '=', 'open')
        .orderBy('id', 'desc')
        .execute();
      return {
        ...(await usersPlan(app, uid)),
        subscription: live ? await subscriptionOut(app, live) : null,
        history: await historyOf(app, uid),
        open_invoices: open.map((r) => invoiceRecord(r, nowOf(app))),
      };
    },
    async userRevenue(ctx) {
      const { app } = ctx;
      await usersPlan(app, ctx.query.uid);
      const settings = await billingSettings(app);
      const rows = await app.db
        .selectFrom('invoices')
        .selectAll()
        .where('user_id', '=', ctx.query.uid)
        .where('status', '=', 'paid')
        .orderBy('paid_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const entries = rows.map((r) => ({
        invoice_id: r.id,
        number: r.number,
        kind: r.kind,
        paid_at: r.paid_at,
        amount_minor: r.kind === 'credit_note' ? -Number(r.total_minor) : Number(r.total_minor),
        currency: r.currency,
      }));
      return {
        entries,
        // One currency per panel (the settings'): entries in another are listed, not summed.
        total_minor: entries
          .filter((e) => e.currency === settings.currency)
          .reduce((a, e) => a + e.amount_minor, 0),
        currency: settings.currency,
      };
    },
    async revenue(ctx) {
      return revenueOverview(ctx.app);
    },
    async invoices(ctx) {
      const q = ctx.query;
      return invoicesPage(ctx.app, { uid: q.uid, status: q.status }, q.page, q.perPage);
    },
    async settle(ctx) {
      const { app } = ctx;
      const invoice = await adminInvoice(app, ctx.params.id);
      if (ctx.query.action === 'mark-paid') {
        const reference = ctx.body.bank_reference;
        if (!reference) throw fieldError('bank_reference', 'The bank reference of the transfer');
        await markInvoicePaid(app, invoice, reference);
      } else {
        await voidInvoice(app, invoice);
      }
      return invoiceRecord(await invoiceById(app, invoice.id), nowOf(app));
    },
    async creditNote(ctx) {
      const { app } = ctx;
      const invoice = await adminInvoice(app, ctx.params.id);
      const note = await issueCreditNote(
        app.db,
        invoice.id,
        { amountMinor: ctx.body.amount_minor, reason: ctx.body.reason },
        stamp(app),
        await billingSettings(app),
      );
      ctx.reply.code(201);
      return invoiceRecord(note, nowOf(app));
    },
  },
});
