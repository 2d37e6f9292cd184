/**
 * Billing's pure arithmetic (integer minor units, never a float on an amount): periods,
 * proration of an upgrade, tax, an invoice's totals. Shared by the panel and the pages.
 */

export type Interval = 'month' | 'year';

/** `at` plus one interval, in UTC; the 31st of a month ends on the next month's last day. */
export function addInterval(at: Date | string, interval: Interval, count = 1): Date {
  const start = new Date(at);
  const months = interval === 'year' ? 12 * count : count;
  const day = start.getUTCDate();
  const end = new Date(start);
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}

/** round(amount × part / whole), half up, in integers (BigInt: amount × ms exceeds 2^53). */
export function share(amountMinor: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  const p = BigInt(Math.max(0, Math.min(part, whole)));
  const w = BigInt(whole);
  return Number((BigInt(amountMinor) * p * 2n + w) / (2n * w));
}

export interface ProrationInput {
  /** The current plan's price for its interval. */
  oldPriceMinor: number;
  /** The new plan's price for the new interval. */
  newPriceMinor: number;
  periodStart: string;
  periodEnd: string;
  /** When the change is made. */
  at: string;
  /** The new interval equals the current one: the period stays; else a new one starts now. */
  sameInterval: boolean;
  newInterval: Interval;
}

export interface Proration {
  /** The unused part of the current period at the old price: credited. */
  creditMinor: number;
  /** What the new plan costs for the time it will run in this invoice. */
  chargeMinor: number;
  /** charge - credit, never below zero. */
  dueMinor: number;
  periodStart: string;
  periodEnd: string;
}

/**
 * An upgrade now (research business-and-scale 2.2): the unused time of the current period is
 * credited at the old price; in the same interval the new plan is charged for the rest of the
 * period (the period stays), otherwise for a whole new period starting now.
 */
export function prorate(input: ProrationInput): Proration {
  const start = Date.parse(input.periodStart);
  const end = Date.parse(input.periodEnd);
  const at = Date.parse(input.at);
  const whole = end - start;
  const left = Math.max(0, Math.min(end - at, whole));
  const creditMinor = share(input.oldPriceMinor, left, whole);
  if (input.sameInterval) {
    const chargeMinor = share(input.newPriceMinor, left, whole);
    return {
      creditMinor,
      chargeMinor,
      dueMinor: Math.max(0, chargeMinor - creditMinor),
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
    };
  }
  return {
    creditMinor,
    chargeMinor: input.newPriceMinor,
    dueMinor: Math.max(0, input.newPriceMinor - creditMinor),
    periodStart: new Date(at).toISOString(),
    periodEnd: addInterval(new Date(at), input.newInterval).toISOString(),
  };
}

/** A tax percentage (21, 7.7) as basis points (2100, 770). */
export const percentToBasisPoints = (percent: number) => Math.round(percent * 100);

/** Tax on a base at basis points, rounded half up to the minor unit. */
export function taxOf(baseMinor: number, basisPoints: number | null): number {
  if (!basisPoints || baseMinor <= 0) return 0;
  return Number((BigInt(baseMinor) * BigInt(basisPoints) * 2n + 10000n) / 20000n);
}

export interface Totals {
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  totalMinor: number;
}

/** Lines summed, the discount (at most the subtotal) off, tax on what is left. */
export function totalsOf(
  lineAmounts: number[],
  discountMinor: number,
  taxBasisPoints: number | null,
): Totals {
  const subtotalMinor = Math.max(
    0,
    lineAmounts.reduce((a, b) => a + b, 0),
  );
  const discount = Math.min(Math.max(0, discountMinor), subtotalMinor);
  const taxMinor = taxOf(subtotalMinor - discount, taxBasisPoints);
  return {
    subtotalMinor,
    discountMinor: discount,
    taxMinor,
    totalMinor: subtotalMinor - discount + taxMinor,
  };
}

/** The price of a plan for an interval. */
export const priceFor = (
  plan: { monthly_price: number; annual_price: number },
  interval: Interval,
) => (interval === 'year' ? plan.annual_price : plan.monthly_price);
