/** The admins' revenue overview (issue 26): zod only, read by the panel and the dashboard. */
import { z } from 'zod';

export const revenueMonthSchema = z.object({
  /** 'YYYY-MM' (UTC). */
  month: z.string(),
  /** Paid invoices' totals (tax included) paid in the month. */
  paid_minor: z.number().int(),
  /** Credit notes issued in the month. */
  credited_minor: z.number().int(),
  /** paid - credited. */
  revenue_minor: z.number().int(),
});

export const revenueOverviewSchema = z.object({
  /** The panel's billing currency: MRR and plan prices are in it. */
  currency: z.string(),
  /** One series per currency with anything paid or credited in the last 12 months (12 months
   *  each, oldest first, empty months as 0); none: no revenue yet. */
  revenue: z.array(
    z.object({
      currency: z.string(),
      months: z.array(revenueMonthSchema),
      total_minor: z.number().int(),
    }),
  ),
  /** Monthly-equivalent of the active and past-due subscriptions at their plan's list price, per
   *  the plans' currency: monthly prices summed, plus the annual prices' sum / 12 rounded half up
   *  once (not per subscription, so no rounding error adds up). */
  mrr: z.array(z.object({ currency: z.string(), mrr_minor: z.number().int() })),
  /** Active subscriptions per plan, most first. */
  plans: z.array(
    z.object({ plan_id: z.number().int(), plan_name: z.string(), active: z.number().int() }),
  ),
  past_due: z.number().int(),
  unpaid: z.number().int(),
  /** Churn: paid subscriptions that ended (cancelled, at the period's end or at once) per month,
   *  the last 12 months oldest first, and the paid ones active now. */
  churn: z.object({
    months: z.array(z.object({ month: z.string(), ended: z.number().int() })),
    active_paid: z.number().int(),
  }),
  /** Open invoices per currency. */
  open_invoices: z.array(
    z.object({ currency: z.string(), count: z.number().int(), total_minor: z.number().int() }),
  ),
});
export type RevenueOverview = z.infer<typeof revenueOverviewSchema>;
