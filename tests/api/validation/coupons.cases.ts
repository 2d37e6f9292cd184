import type { Case } from '../validation.test';

/** Bad input on coupons: the code, each kind's own amount, the duration's periods. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/coupon',
    as: 'admin',
    query: '?perPage=0',
    errors: { perPage: /./ },
  },
  {
    route: 'POST /api/v1/coupon',
    as: 'admin',
    body: { code: '-x', kind: 'bogus', percent_off: 0, max_redemptions: 0, expires_at: 'soon' },
    errors: {
      code: /Letters, digits/,
      kind: 'percent or fixed',
      percent_off: 'At least 1 %',
      max_redemptions: 'At least 1',
      expires_at: /A date/,
    },
  },
  {
    route: 'POST /api/v1/coupon',
    as: 'admin',
    body: { code: 'FIXEDNOCUR', kind: 'fixed', percent_off: 10, duration: 'recurring' },
    errors: {
      amount_off: 'A fixed coupon needs the amount it takes off',
      currency: 'A fixed coupon needs the currency of its amount',
      percent_off: 'Only a percentage coupon takes a percentage',
      duration_periods: 'A recurring coupon needs its number of periods',
    },
  },
];
