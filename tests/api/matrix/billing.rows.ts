import { randomUUID } from 'node:crypto';
import { markInvoicePaid } from '../../../features/billing/serverCharge';
import { invoiceById, subscribe } from '../../../features/billing/serverSubscriptions';
import type { TestApp, TestUser } from '../helpers';
import { ADMIN, type Fixture, type Row, SELF, STAFF } from './support';

/** A subscription of `userId` to Basic by transfer: its open invoice's id. */
async function openInvoiceOf(t: TestApp, userId: number): Promise<number> {
  const outcome = await subscribe(t.app, userId, {
    planId: 3,
    interval: 'month',
    payType: 'manual',
  });
  if (!outcome.invoice) throw new Error('subscribing made no invoice');
  return outcome.invoice.id;
}

/** A new account with an open invoice (the admins' rows change it: one per role). */
async function strangersOpenInvoice(f: Fixture): Promise<number> {
  const user = await f.t.app.services.users.create({
    email: `billing-${randomUUID()}@example.com`,
    user_name: 'Billing',
    password_hash: 'x',
  });
  return openInvoiceOf(f.t, user.id);
}

async function paidInvoice(f: Fixture): Promise<number> {
  const id = await strangersOpenInvoice(f);
  await markInvoicePaid(f.t.app, await invoiceById(f.t.app, id), 'MATRIX');
  return id;
}

/** A fresh coupon for any plan: the owner redeems each coupon once. */
async function freshCoupon(f: Fixture): Promise<string> {
  const code = `BILL${randomUUID().slice(0, 8)}`;
  const at = new Date().toISOString();
  await f.t.app.db
    .insertInto('coupons')
    .values({
      code,
      code_key: code.toLowerCase(),
      kind: 'percent',
      percent_off: 10,
      amount_off: null,
      currency: null,
      duration: 'once',
      duration_periods: null,
      plan_ids: '',
      expires_at: null,
      max_redemptions: null,
      redeemed: 0,
      active: 1,
      retired_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return code;
}

/** A stranger's invoice, for the derived "another account's row" rows. */
export const owned = {
  billing: (t: TestApp, user: TestUser) => openInvoiceOf(t, user.id),
};

const CREATED = { ...SELF, owner: 201, admin: 201, acting: 201 };

/**
 * Billing: the account's subscription and invoices on its `{uid}` (an admin and an admin acting
 * too); a user's subscription and revenue for the admin area (staff read them: Users), the
 * invoices the admins'. Each caller who gets through finds what the call needs: a new
 * subscription replaces a waiting one, so each role subscribes, cancels and applies a coupon.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/subscription/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/subscription/users/:uid',
    query: () => '?plan_id=3&type=monthly&pay_type=manual',
    expect: CREATED,
  },
  {
    route: 'DELETE /api/v1/subscription/users/:uid',
    query: async (f) => (await openInvoiceOf(f.t, f.owner.id), ''),
    expect: SELF,
  },
  {
    route: 'GET /api/v1/subscription/paymentintent/users/:uid',
    query: async (f) => (await openInvoiceOf(f.t, f.owner.id), '?pid=3'),
    expect: SELF,
  },
  { route: 'GET /api/v1/billing-details/users/:uid', query: () => '?page=1', expect: SELF },
  {
    route: 'GET /api/v1/billing-details/:invoiceId/users/:uid',
    params: async (f) => ({ invoiceId: await openInvoiceOf(f.t, f.owner.id) }),
    expect: SELF,
  },
  {
    route: 'GET /api/v1/billing-details/:invoiceId/pdf/users/:uid',
    params: async (f) => ({ invoiceId: await openInvoiceOf(f.t, f.owner.id) }),
    expect: SELF,
  },
  {
    route: 'PATCH /api/v1/apply-coupon/users/:uid',
    query: async (f) => {
      const code = await freshCoupon(f);
      await openInvoiceOf(f.t, f.owner.id);
      return `?name=${code}`;
    },
    expect: SELF,
  },
  {
    route: 'GET /api/v1/admin/user-subscription',
    query: (f) => `?uid=${f.owner.id}`,
    expect: STAFF,
  },
  {
    route: 'GET /api/v1/admin/user-revenue-details',
    query: (f) => `?uid=${f.owner.id}`,
    expect: STAFF,
  },
  { route: 'GET /api/v1/admin/revenue', expect: ADMIN },
  { route: 'GET /api/v1/admin/invoices', query: () => '?status=open', expect: ADMIN },
  {
    route: 'PATCH /api/v1/admin/invoices/:id',
    target: strangersOpenInvoice,
    query: () => '?action=void',
    body: () => ({}),
    expect: ADMIN,
  },
  { route: 'GET /api/v1/admin/invoices/:id/pdf', target: paidInvoice, expect: ADMIN },
  {
    route: 'POST /api/v1/admin/invoices/:id/credit-note',
    target: paidInvoice,
    body: () => ({ amount_minor: 100, reason: 'Matrix goodwill' }),
    expect: { ...ADMIN, admin: 201 },
  },
];
