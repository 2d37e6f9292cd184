import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planById } from '../../features/plans/serverApi';
import type { InvoicesTable, SubscriptionsTable } from '../../features/billing/serverTables';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * `GET admin/revenue` (issue 26) from known invoices: credit notes subtract, another currency is
 * kept apart, void and open invoices are not revenue, a month outside the 12 is left out; MRR,
 * subscriptions per plan, past due and unpaid counts, open invoices.
 */
let t: TestApp;
let admin: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
  buyer = await t.user();
});
afterAll(async () => {
  await t.close();
});

const get = (user: TestUser) => t.call('GET', '/api/v1/admin/revenue', { token: user.token });

/** The first day of the month `back` months before this one, at noon (UTC). */
const monthAgo = (back: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1, 12)).toISOString();
};
const monthKey = (back: number) => monthAgo(back).slice(0, 7);

let serial = 0;
async function invoice(fields: Partial<Insertable<InvoicesTable>> & { total_minor: number }) {
  serial += 1;
  const at = fields.paid_at ?? monthAgo(0);
  const row = await t.app.db
    .insertInto('invoices')
    .values({
      number: `T-${serial}`,
      kind: 'invoice',
      refers_to: null,
      user_id: buyer.id,
      subscription_id: null,
      purpose: 'subscribe',
      plan_id: 3,
      interval: 'month',
      status: 'paid',
      currency: 'USD',
      subtotal_minor: fields.total_minor,
      discount_minor: 0,
      discount_label: null,
      tax_minor: 0,
      tax_rate_bp: null,
      buyer: null,
      seller: null,
      reason: null,
      period_start: null,
      period_end: null,
      due_at: null,
      voided_at: null,
      finalized_at: at,
      created_at: at,
      ...fields,
      paid_at: fields.status && fields.status !== 'paid' ? null : at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function subscription(
  planId: number,
  interval: 'month' | 'year',
  status: SubscriptionsTable['status'],
) {
  const user = await t.user();
  const at = new Date().toISOString();
  await t.app.db
    .insertInto('subscriptions')
    .values({
      user_id: user.id,
      plan_id: planId,
      interval,
      status,
      pay_type: 'manual',
      current_period_start: at,
      current_period_end: at,
      cancel_at_period_end: 0,
      canceled_at: status === 'canceled' ? at : null,
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
    })
    .execute();
}

describe('GET admin/revenue', () => {
  it('is empty before any revenue', async () => {
    const res = await get(admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      currency: 'USD',
      revenue: [],
      mrr: [],
      plans: [],
      past_due: 0,
      unpaid: 0,
      open_invoices: [],
      churn: { active_paid: 0 },
    });
  });

  it('sums paid invoices minus credit notes per month and currency', async () => {
    const paidNow = await invoice({ total_minor: 10_000 });
    await invoice({ total_minor: 2_500 });
    await invoice({ total_minor: 1_000, kind: 'credit_note', refers_to: paidNow });
    await invoice({ total_minor: 4_000, paid_at: monthAgo(2) });
    await invoice({ total_minor: 7_777, status: 'void' });
    await invoice({ total_minor: 3_333, status: 'open' });
    await invoice({ total_minor: 1_111, status: 'open' });
    await invoice({ total_minor: 99_999, paid_at: monthAgo(12) });
    await invoice({ total_minor: 5_000, currency: 'EUR', paid_at: monthAgo(1) });

    const res = await get(admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.revenue.map((s: { currency: string }) => s.currency)).toEqual(['USD', 'EUR']);
    const [usd, eur] = body.revenue;
    expect(usd.months).toHaveLength(12);
    expect(usd.months[0].month).toBe(monthKey(11));
    expect(usd.months[11]).toEqual({
      month: monthKey(0),
      paid_minor: 12_500,
      credited_minor: 1_000,
      revenue_minor: 11_500,
    });
    expect(usd.months[9]).toMatchObject({ month: monthKey(2), revenue_minor: 4_000 });
    expect(usd.total_minor).toBe(15_500);
    expect(eur.total_minor).toBe(5_000);
    expect(eur.months[10]).toMatchObject({ month: monthKey(1), revenue_minor: 5_000 });
    expect(body.open_invoices).toEqual([{ currency: 'USD', count: 2, total_minor: 4_444 }]);
  });

  it('counts MRR (annual prices / 12, half up, once), subscriptions per plan, past due and unpaid', async () => {
    const basic = (await planById(t.app.db, 3))!;
    const pro = (await planById(t.app.db, 4))!;
    await subscription(3, 'month', 'active');
    await subscription(3, 'month', 'active');
    await subscription(4, 'year', 'active');
    await subscription(4, 'month', 'past_due');
    await subscription(3, 'month', 'unpaid');
    await subscription(3, 'month', 'canceled');
    await subscription(3, 'month', 'incomplete');

    const body = (await get(admin)).json();
    const mrr =
      2 * basic.monthly_price + pro.monthly_price + Math.floor((2 * pro.annual_price + 12) / 24);
    expect(body.mrr).toEqual([{ currency: basic.currency, mrr_minor: mrr }]);
    expect(body.plans).toEqual([
      { plan_id: 3, plan_name: basic.name, active: 2 },
      { plan_id: 4, plan_name: pro.name, active: 1 },
    ]);
    expect(body).toMatchObject({ past_due: 1, unpaid: 1 });
    // Churn: the paid subscription cancelled this month; a Free one replaced by a plan is not.
    await subscription(2, 'month', 'canceled');
    const churn = (await get(admin)).json().churn;
    expect(churn.months).toHaveLength(12);
    expect(churn.months.at(-1)).toEqual({ month: new Date().toISOString().slice(0, 7), ended: 1 });
    expect(churn.active_paid).toBe(4);
  });

  it('is for admins only', async () => {
    expect((await get(buyer)).statusCode).toBe(403);
    const staff = await t.user({ staff: true });
    expect((await get(staff)).statusCode).toBe(403);
  });
});
