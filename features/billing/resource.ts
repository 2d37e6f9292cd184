/**
 * Billing (spec s.7 "Billing", issue 26): the account's subscription and invoices, and the
 * admins' side (invoices, a user's subscription and revenue). Shapes in schemas.ts.
 */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';
import { revenueOverviewSchema } from './revenueSchemas';
import {
  adminInvoiceAction,
  adminInvoiceBody,
  adminInvoicesQuery,
  adminSubscriptionSchema,
  applyCouponQuery,
  creditNoteBody,
  invoiceDetailSchema,
  invoicePage,
  invoiceSchema,
  pageQuery,
  paymentIntentSchema,
  revenueSchema,
  subscribeQuery,
  subscribeResult,
  subscriptionSchema,
  subscriptionViewSchema,
  uidQuery,
} from './schemas';

/** The account's subscription and invoices: `{invoiceId}` is loaded through `{uid}`. */
export const billing = defineResource({
  name: 'billing',
  label: 'Billing',
  parent: 'account',
  params: { invoiceId: 'id' },
  missing: 'No such invoice',
  schema: invoiceSchema,
  paths: {},
  ops: {},
  actions: {
    subscription: {
      method: 'GET',
      path: 'subscription/users/{uid}',
      guard: 'self',
      summary: 'The plan in force, the live subscription, its open and next invoice, the history',
      response: subscriptionViewSchema,
    },
    subscribe: {
      method: 'POST',
      path: 'subscription/users/{uid}',
      guard: 'self',
      summary:
        'Subscribe to a plan (the plan is granted once its invoice is paid), upgrade (prorated, switched once paid) or downgrade (at the period end)',
      query: subscribeQuery,
      response: subscribeResult,
      status: 201,
    },
    cancel: {
      method: 'DELETE',
      path: 'subscription/users/{uid}',
      guard: 'self',
      summary: 'Cancel at the end of the period (an unpaid new subscription at once)',
      response: subscriptionSchema,
    },
    paymentIntent: {
      method: 'GET',
      path: 'subscription/paymentintent/users/{uid}',
      guard: 'self',
      summary: 'What the browser needs to pay the open invoice for plan `pid`',
      query: z.object({ pid: z.coerce.number('A plan id').int('A plan id').positive('A plan id') }),
      response: paymentIntentSchema,
    },
    invoices: {
      method: 'GET',
      path: 'billing-details/users/{uid}',
      guard: 'self',
      summary: "The account's invoices and credit notes, newest first",
      query: pageQuery,
      response: invoicePage,
    },
    invoice: {
      method: 'GET',
      path: 'billing-details/{invoiceId}/users/{uid}',
      guard: 'self',
      summary: 'One invoice with its lines and payment attempts',
      response: invoiceDetailSchema,
    },
    invoicePdf: {
      method: 'GET',
      path: 'billing-details/{invoiceId}/pdf/users/{uid}',
      guard: 'self',
      summary: 'The invoice or credit note as a PDF (a download; the path is ours)',
    },
    applyCoupon: {
      method: 'PATCH',
      path: 'apply-coupon/users/{uid}',
      guard: 'self',
      summary:
        'Apply a coupon to the subscription: it discounts the next invoices by its duration (an invoice already issued keeps its amount)',
      query: applyCouponQuery,
      response: subscriptionSchema,
    },
  },
});

/** The admins' side of billing. */
export const billingAdmin = defineResource({
  name: 'billing-admin',
  label: 'Invoices',
  scope: 'panel',
  missing: 'No such invoice',
  schema: invoiceSchema,
  paths: {},
  ops: {},
  actions: {
    userSubscription: {
      method: 'GET',
      path: 'admin/user-subscription',
      guard: 'staff',
      summary: "A user's plan, subscription, history and open invoices",
      query: uidQuery,
      response: adminSubscriptionSchema,
    },
    userRevenue: {
      method: 'GET',
      path: 'admin/user-revenue-details',
      guard: 'staff',
      summary: "A user's paid invoices (credit notes against them), and their sum",
      query: uidQuery,
      response: revenueSchema,
    },
    revenue: {
      method: 'GET',
      path: 'admin/revenue',
      guard: 'admin',
      summary:
        'Revenue per month for the last 12 months per currency (paid invoices minus credit notes), MRR, active subscriptions per plan, past due and unpaid counts, open invoices',
      response: revenueOverviewSchema,
    },
    invoices: {
      method: 'GET',
      path: 'admin/invoices',
      guard: 'admin',
      summary: 'Every invoice and credit note, newest first',
      query: adminInvoicesQuery,
      response: invoicePage,
    },
    settle: {
      method: 'PATCH',
      path: 'admin/invoices/{id}',
      guard: 'admin',
      summary:
        'mark-paid: the bank transfer arrived (its reference); void: the open invoice is cancelled',
      query: adminInvoiceAction,
      body: adminInvoiceBody,
      response: invoiceSchema,
    },
    creditNote: {
      method: 'POST',
      path: 'admin/invoices/{id}/credit-note',
      guard: 'admin',
      summary: 'Issue a credit note against a finalized invoice (at most what is left of it)',
      body: creditNoteBody,
      response: invoiceSchema,
      status: 201,
    },
    invoicePdf: {
      method: 'GET',
      path: 'admin/invoices/{id}/pdf',
      guard: 'admin',
      summary: 'Any invoice or credit note as a PDF (a download; the path is ours)',
    },
  },
});

export const resources = {
  billing,
  'billing-admin': billingAdmin,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: billing lives in the panel. */
export const ops = {};
