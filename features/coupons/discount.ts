/**
 * What a coupon takes off an amount: pure integer arithmetic in minor units, shared by billing
 * (invoices) and the pages (the preview).
 */

/** The terms of a coupon that decide its discount. */
export interface DiscountTerms {
  kind: 'percent' | 'fixed';
  /** 1-100, for `percent`. */
  percent_off: number | null;
  /** Minor units, for `fixed`. */
  amount_off: number | null;
  /** The currency of `amount_off`. */
  currency: string | null;
}

/**
 * The discount on `amountMinor` (an integer >= 0), in the same minor units: never more than the
 * amount (the total never goes below zero), never below zero.
 * Rounding: a percentage is rounded half up to the minor unit (15 % of 999 cents is 149.85 ->
 * 150), as `(amount × percent + 50) div 100` in integers: no float touches the amount.
 * A fixed discount is in its own currency: `currency` (the amount's) must match it.
 */
export function discountFor(coupon: DiscountTerms, amountMinor: number, currency?: string): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0)
    throw new RangeError(`An amount is whole minor units, not below zero: ${amountMinor}`);
  if (coupon.kind === 'percent') {
    const percent = coupon.percent_off ?? 0;
    if (!Number.isInteger(percent) || percent < 0 || percent > 100)
      throw new RangeError(`A percentage off is a whole number from 0 to 100: ${percent}`);
    // amount ≤ 1e8 in practice; even 2^53 / 100 keeps the product exact below 9e13.
    const off = Math.floor((amountMinor * percent + 50) / 100);
    return Math.min(off, amountMinor);
  }
  if (currency !== undefined && coupon.currency !== null && currency !== coupon.currency)
    throw new RangeError(`A coupon in ${coupon.currency} cannot discount an amount in ${currency}`);
  const off = coupon.amount_off ?? 0;
  if (!Number.isSafeInteger(off) || off < 0)
    throw new RangeError(`A fixed discount is whole minor units, not below zero: ${off}`);
  return Math.min(off, amountMinor);
}
