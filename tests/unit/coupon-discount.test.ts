import { describe, expect, it } from 'vitest';
import { discountFor } from '../../features/coupons/api';
import { formatMinor, formatMoney } from '../../features/plans/api';

const pct = (percent_off: number) =>
  ({ kind: 'percent', percent_off, amount_off: null, currency: null }) as const;
const fixed = (amount_off: number, currency = 'USD') =>
  ({ kind: 'fixed', percent_off: null, amount_off, currency }) as const;

describe('discountFor', () => {
  it('takes a percentage in whole minor units, rounded half up', () => {
    expect(discountFor(pct(25), 1900)).toBe(475);
    expect(discountFor(pct(15), 999)).toBe(150); // 149.85
    expect(discountFor(pct(10), 5)).toBe(1); // 0.5 rounds up
    expect(discountFor(pct(10), 4)).toBe(0); // 0.4 rounds down
    expect(discountFor(pct(33), 100)).toBe(33);
    expect(discountFor(pct(100), 1234)).toBe(1234);
    expect(discountFor(pct(50), 0)).toBe(0);
  });

  it('never takes more than the amount, nor goes below zero', () => {
    expect(discountFor(fixed(500), 300)).toBe(300);
    expect(discountFor(fixed(500), 900)).toBe(500);
    expect(discountFor(fixed(500), 0)).toBe(0);
    for (let amount = 0; amount < 2000; amount += 37)
      for (const p of [1, 7, 33, 50, 99, 100]) {
        const off = discountFor(pct(p), amount);
        expect(Number.isInteger(off)).toBe(true);
        expect(off).toBeGreaterThanOrEqual(0);
        expect(off).toBeLessThanOrEqual(amount);
      }
  });

  it('stays exact on large amounts (no float drift)', () => {
    expect(discountFor(pct(7), 100_000_000)).toBe(7_000_000);
    expect(discountFor(pct(33), 99_999_999)).toBe(33_000_000); // 32,999,999.67
  });

  it('refuses amounts that are not whole minor units, and another currency', () => {
    expect(() => discountFor(pct(10), 12.5)).toThrow(RangeError);
    expect(() => discountFor(pct(10), -1)).toThrow(RangeError);
    expect(() => discountFor(pct(101), 100)).toThrow(RangeError);
    expect(() => discountFor(fixed(500, 'EUR'), 1000, 'USD')).toThrow(/in EUR/);
    expect(discountFor(fixed(500, 'EUR'), 1000, 'EUR')).toBe(500);
  });
});

describe('formatMinor', () => {
  it('shows minor units by the currency’s exponent', () => {
    expect(formatMinor(1200, 'USD')).toBe('12.00');
    expect(formatMinor(5, 'EUR')).toBe('0.05');
    expect(formatMinor(0, 'USD')).toBe('0.00');
    expect(formatMinor(1200, 'JPY')).toBe('1200');
    expect(formatMinor(-250, 'GBP')).toBe('-2.50');
    expect(formatMoney(19000, 'USD')).toBe('190.00 USD');
  });
});
