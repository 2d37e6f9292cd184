/**
 * `GET admin/revenue`: the admins' overview, from a few aggregate queries (sums in SQL, integer
 * minor units; PostgreSQL's sums come back as strings, hence Number()).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { planById } from '../plans/serverApi';
import type { RevenueOverview } from './revenueSchemas';
import { FREE_PLAN_ID, TRIAL_PLAN_ID } from './schemas';
import { billingSettings } from './serverSettings';

const num = (v: unknown) => Number(v ?? 0);

/** The 12 months ending with the clock's, oldest first, as 'YYYY-MM' (UTC). */
export function lastTwelveMonths(now: number): string[] {
  const d = new Date(now);
  const out: string[] = [];
  for (let i = 11; i >= 0; i--) {
    const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1));
    out.push(m.toISOString().slice(0, 7));
  }
  return out;
}

export async function revenueOverview(app: FastifyInstance): Promise<RevenueOverview> {
  const settings = await billingSettings(app);
  const months = lastTwelveMonths(app.services.clock());
  const from = `${months[0]}-01T00:00:00.000Z`;
  const month = sql<string>`substr(paid_at, 1, 7)`;

  const endedMonth = sql<string>`substr(canceled_at, 1, 7)`;
  const [paid, subs, open, ended] = await Promise.all([
    // Paid invoices and credit notes (a credit note is 'paid' when issued); void and open ones
    // are not revenue.
    app.db
      .selectFrom('invoices')
      .select([
        'currency',
        month.as('month'),
        sql<number | string>`sum(case when kind = 'invoice' then total_minor else 0 end)`.as(
          'paid',
        ),
        sql<number | string>`sum(case when kind = 'credit_note' then total_minor else 0 end)`.as(
          'credited',
        ),
      ])
      .where('status', '=', 'paid')
      .where('paid_at', '>=', from)
      .groupBy(['currency', month])
      .execute(),
    app.db
      .selectFrom('subscriptions')
      .select(['plan_id', 'interval', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('status', 'in', ['active', 'past_due', 'unpaid'])
      .groupBy(['plan_id', 'interval', 'status'])
      .execute(),
    app.db
      .selectFrom('invoices')
      .select([
        'currency',
        (eb) => eb.fn.countAll<number | string>().as('n'),
        (eb) => eb.fn.sum<number | string>('total_minor').as('total'),
      ])
      .where('status', '=', 'open')
      .where('kind', '=', 'invoice')
      .groupBy('currency')
      .orderBy('currency')
      .execute(),
    // Ended paid subscriptions: Trial and Free end only when a paid plan replaces them.
    app.db
      .selectFrom('subscriptions')
      .select([endedMonth.as('month'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('status', '=', 'canceled')
      .where('plan_id', 'not in', [TRIAL_PLAN_ID, FREE_PLAN_ID])
      .where('canceled_at', '>=', from)
      .groupBy(endedMonth)
      .execute(),
  ]);

  const byCurrency = new Map<string, Map<string, { paid: number; credited: number }>>();
  for (const r of paid) {
    const series = byCurrency.get(r.currency) ?? new Map();
    series.set(r.month, { paid: num(r.paid), credited: num(r.credited) });
    byCurrency.set(r.currency, series);
  }
  const revenue = [...byCurrency.entries()]
    .sort(([a], [b]) =>
      a === settings.currency ? -1 : b === settings.currency ? 1 : a < b ? -1 : 1,
    )
    .map(([currency, series]) => {
      const rows = months.map((m) => {
        const v = series.get(m) ?? { paid: 0, credited: 0 };
        return {
          month: m,
          paid_minor: v.paid,
          credited_minor: v.credited,
          revenue_minor: v.paid - v.credited,
        };
      });
      return {
        currency,
        months: rows,
        total_minor: rows.reduce((a, r) => a + r.revenue_minor, 0),
      };
    });

  // One lookup per plan in use (a handful), not per subscription.
  const plans = new Map<number, Awaited<ReturnType<typeof planById>>>();
  for (const id of new Set(subs.map((s) => s.plan_id))) plans.set(id, await planById(app.db, id));
  const monthly = new Map<string, number>();
  const annual = new Map<string, number>();
  const active = new Map<number, number>();
  let pastDue = 0;
  let unpaid = 0;
  for (const s of subs) {
    const n = num(s.n);
    if (s.status === 'unpaid') {
      unpaid += n;
      continue;
    }
    if (s.status === 'past_due') pastDue += n;
    else active.set(s.plan_id, (active.get(s.plan_id) ?? 0) + n);
    const plan = plans.get(s.plan_id);
    if (!plan) continue;
    const sums = s.interval === 'year' ? annual : monthly;
    const price = s.interval === 'year' ? plan.annual_price : plan.monthly_price;
    sums.set(plan.currency, (sums.get(plan.currency) ?? 0) + price * n);
  }
  const currencies = [...new Set([...monthly.keys(), ...annual.keys()])].sort();
  const mrr = currencies
    .map((currency) => ({
      currency,
      // Half up, in integers: floor((2a + 12) / 24) is round(a / 12) for a >= 0.
      mrr_minor:
        (monthly.get(currency) ?? 0) + Math.floor((2 * (annual.get(currency) ?? 0) + 12) / 24),
    }))
    .filter((m) => m.mrr_minor > 0);

  const endedIn = new Map(ended.map((r) => [r.month, num(r.n)]));
  const activePaid = subs
    .filter(
      (s) => s.status !== 'unpaid' && s.plan_id !== FREE_PLAN_ID && s.plan_id !== TRIAL_PLAN_ID,
    )
    .reduce((a, s) => a + num(s.n), 0);

  return {
    currency: settings.currency,
    revenue,
    mrr,
    churn: {
      months: months.map((m) => ({ month: m, ended: endedIn.get(m) ?? 0 })),
      active_paid: activePaid,
    },
    plans: [...active.entries()]
      .map(([planId, n]) => ({
        plan_id: planId,
        plan_name: plans.get(planId)?.name ?? `Plan #${planId}`,
        active: n,
      }))
      .sort((a, b) => b.active - a.active || a.plan_id - b.plan_id),
    past_due: pastDue,
    unpaid,
    open_invoices: open.map((r) => ({
      currency: r.currency,
      count: num(r.n),
      total_minor: num(r.total),
    })),
  };
}
