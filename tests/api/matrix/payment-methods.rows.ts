import { randomUUID } from 'node:crypto';
import type { TestApp, TestUser } from '../helpers';
import { type Fixture, PUBLIC, type Row, SELF, type Statuses } from './support';

/** A saved card of `userId`'s, as the completion route would have saved it. */
async function savedMethod(t: TestApp, userId: number): Promise<number> {
  const row = await t.app.db
    .insertInto('payment_methods')
    .values({
      user_id: userId,
      gateway: 'stripe',
      ref: `pm_matrix_${randomUUID().slice(0, 12)}`,
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
  return row.id;
}

/** A setup the owner started, which the completion route finishes. */
async function ownersSetup(f: Fixture): Promise<{ setup_ref: string }> {
  const setup_ref = `seti_matrix_${randomUUID().slice(0, 12)}`;
  await f.t.app.db
    .insertInto('payment_setups')
    .values({
      user_id: f.owner.id,
      gateway: 'stripe',
      setup_ref,
      created_at: new Date().toISOString(),
    })
    .execute();
  await f.t.app.db
    .insertInto('gateway_customers')
    .values({
      user_id: f.owner.id,
      gateway: 'stripe',
      customer_ref: 'cus_matrix',
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['user_id', 'gateway']).doNothing())
    .execute();
  return { setup_ref };
}

/** Rows of each account resource of `user`'s, for the derived "another account's row" rows. */
export const owned = {
  'payment-methods': (t: TestApp, user: TestUser) => savedMethod(t, user.id),
};

/**
 * The matrix's panel has no gateway keys: whoever passes the guard and the tenant check gets
 * the 409 that says card payments are not set up (the rails themselves: payment-methods.test.ts).
 */
const NOT_SET_UP: Statuses = { ...SELF, owner: 409, admin: 409, acting: 409 };

export const rows: Row[] = [
  { route: 'GET /api/v1/payment-methods/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/payment-methods/users/:uid',
    body: () => ({ gateway: 'stripe' }),
    expect: NOT_SET_UP,
  },
  {
    route: 'POST /api/v1/payment-methods/complete/users/:uid',
    body: (f) => ownersSetup(f),
    expect: NOT_SET_UP,
  },
  {
    route: 'DELETE /api/v1/payment-methods/:pmId/users/:uid',
    params: async (f) => ({ pmId: await savedMethod(f.t, f.owner.id) }),
    expect: NOT_SET_UP,
  },
  {
    route: 'PATCH /api/v1/payment-methods/:pmId/users/:uid',
    params: async (f) => ({ pmId: await savedMethod(f.t, f.owner.id) }),
    query: () => '?default=true',
    expect: SELF,
  },
  { route: 'GET /api/v1/default-payment-method/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/webhooks/stripe',
    body: () => ({ id: 'evt_matrix' }),
    expect: PUBLIC(409),
  },
  {
    route: 'POST /api/v1/webhooks/paypal',
    body: () => ({ id: 'WH-MATRIX' }),
    expect: PUBLIC(409),
  },
  { route: 'GET /api/v1/paypal/return', query: () => '?cancel=1', expect: PUBLIC(302) },
  { route: 'GET /api/v1/payment-methods/stripe.js', expect: PUBLIC(302) },
];
