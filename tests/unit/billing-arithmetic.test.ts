import { describe, expect, it } from 'vitest';
import { addInterval, prorate, share, taxOf, totalsOf } from '../../features/billing/arithmetic';

/** Billing's pure arithmetic: periods, an upgrade's proration, tax, totals (integer minor units). */
describe('billing arithmetic', () => {
  it('adds months and years in UTC, the 31st ending on a shorter month’s last day', () => {
    expect(addInterval('2026-01-31T10:00:00.000Z', 'month').toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(addInterval('2026-03-15T00:00:00.000Z', 'month').toISOString()).toBe(
      '2026-04-15T00:00:00.000Z',
    );
    expect(addInterval('2028-02-29T00:00:00.000Z', 'year').toISOString()).toBe(
      '2029-02-28T00:00:00.000Z',
    );
    expect(addInterval('2026-12-05T00:00:00.000Z', 'month').toISOString()).toBe(
      '2027-01-05T00:00:00.000Z',
    );
  });

  it('shares an amount by time, half up, exactly for large products', () => {
    expect(share(900, 15, 30)).toBe(450);
    expect(share(1, 1, 2)).toBe(1);
    expect(share(1900, 1, 3)).toBe(633);
    // 1e8 minor units × a year in ms exceeds 2^53: still exact.
    expect(share(100_000_000, 31_536_000_000 / 2, 31_536_000_000)).toBe(50_000_000);
  });

  it('prorates an upgrade in the same interval: new price for the rest, less the unused old', () => {
    const p = prorate({
      oldPriceMinor: 900,
      newPriceMinor: 1900,
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
      at: '2026-11-21T00:00:00.000Z',
      sameInterval: true,
      newInterval: 'month',
    });
    // 10 of 30 days left: 1900/3 = 633.33 -> 633; 900/3 = 300.
    expect(p).toEqual({
      creditMinor: 300,
      chargeMinor: 633,
      dueMinor: 333,
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
    });
  });

  it('prorates an upgrade to another interval: a whole new period from now, less the credit', () => {
    const p = prorate({
      oldPriceMinor: 900,
      newPriceMinor: 19000,
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
      at: '2026-11-16T00:00:00.000Z',
      sameInterval: false,
      newInterval: 'year',
    });
    expect(p).toEqual({
      creditMinor: 450,
      chargeMinor: 19000,
      dueMinor: 18550,
      periodStart: '2026-11-16T00:00:00.000Z',
      periodEnd: '2027-11-16T00:00:00.000Z',
    });
  });

  it('never asks less than nothing, and credits nothing after the period', () => {
    const late = prorate({
      oldPriceMinor: 1900,
      newPriceMinor: 900,
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
      at: '2026-11-11T00:00:00.000Z',
      sameInterval: true,
      newInterval: 'month',
    });
    expect(late.dueMinor).toBe(0);
    const after = prorate({
      oldPriceMinor: 900,
      newPriceMinor: 1900,
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
      at: '2026-12-02T00:00:00.000Z',
      sameInterval: true,
      newInterval: 'month',
    });
    expect(after).toMatchObject({ creditMinor: 0, chargeMinor: 0, dueMinor: 0 });
  });

  it('taxes what is left after the discount, half up', () => {
    expect(taxOf(1000, 2100)).toBe(210);
    expect(taxOf(999, 770)).toBe(77); // 76.923
    expect(taxOf(5, 1000)).toBe(1); // 0.5 -> 1
    expect(taxOf(1000, null)).toBe(0);
    expect(totalsOf([1900, -300], 400, 2000)).toEqual({
      subtotalMinor: 1600,
      discountMinor: 400,
      taxMinor: 240,
      totalMinor: 1440,
    });
    expect(totalsOf([500], 900, null)).toMatchObject({ discountMinor: 500, totalMinor: 0 });
  });
});
