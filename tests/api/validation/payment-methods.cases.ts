import type { Case } from '../validation.test';

/** Bad input on payment methods: the gateway, the setup, default=true, a webhook's event id. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/payment-methods/users/:uid',
    as: 'user',
    body: { gateway: 'bitcoin' },
    errors: { gateway: 'stripe or paypal' },
  },
  {
    route: 'POST /api/v1/payment-methods/complete/users/:uid',
    as: 'user',
    body: { setup_ref: 'not a ref!' },
    errors: { setup_ref: /A setup reference/ },
  },
  {
    route: 'PATCH /api/v1/payment-methods/:pmId/users/:uid',
    as: 'user',
    query: '?default=yes',
    errors: { default: 'default=true' },
    params: async ({ t, uid }) => {
      const row = await t.app.db
        .insertInto('payment_methods')
        .values({
          user_id: uid,
          gateway: 'stripe',
          ref: `pm_validation_${Date.now()}`,
          brand: 'visa',
          last4: '4242',
          exp_month: 12,
          exp_year: 2030,
          is_paypal: 0,
          email: null,
          is_default: 0,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { pmId: row.id };
    },
  },
  { route: 'POST /api/v1/webhooks/stripe', body: { type: 'x' }, errors: { id: /./ } },
  { route: 'POST /api/v1/webhooks/paypal', body: { id: 7 }, errors: { id: /./ } },
  {
    route: 'GET /api/v1/paypal/return',
    query: '?token=not%20an%20order',
    errors: { token: 'PayPal order id' },
  },
  {
    route: 'GET /api/v1/payment-methods/stripe.js',
    query: '?v=2',
    errors: { v: 'Stripe.js v3 only' },
  },
];
