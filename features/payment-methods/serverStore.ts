import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db/database';
import { HttpError } from '../../server/http/errors';
import { GatewayError, type Gateway, type PaymentMethodInfo } from '../payments/serverApi';
import type { PaymentMethod } from './resource';
import type { CardGateway, PaymentMethodRow } from './serverTables';

const now = () => new Date().toISOString();

export function methodRecord(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    gateway: row.gateway,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    is_paypal: row.is_paypal === 1,
    email: row.email,
    is_default: row.is_default === 1,
    created_at: row.created_at,
  };
}

/** The `{uid}` user's method of that id (the request hook's loader for `{pmId}`). */
export function methodOfAccount(db: Db, uid: number, pmId: number | string) {
  return db
    .selectFrom('payment_methods')
    .selectAll()
    .where('id', '=', Number(pmId))
    .where('user_id', '=', uid)
    .executeTakeFirst();
}

/** The user's methods, the default first, then the newest. */
export function methodsOf(db: Db, userId: number) {
  return db
    .selectFrom('payment_methods')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A gateway's refusal as the panel's answer: a refusal 409, an outage 502. */
export function asHttpError(error: unknown): unknown {
  if (!(error instanceof GatewayError)) return error;
  const refused = error.code === 'invalid_request' || error.code === 'card_declined';
  return new HttpError(refused ? 409 : 502, error.message);
}

/** The user's customer at the gateway, made there the first time. */
export async function customerRefOf(
  app: FastifyInstance,
  userId: number,
  provider: CardGateway,
  gateway: Gateway,
): Promise<string> {
  const { db } = app;
  const find = () =>
    db
      .selectFrom('gateway_customers')
      .select('customer_ref')
      .where('user_id', '=', userId)
      .where('gateway', '=', provider)
      .executeTakeFirst();
  const known = await find();
  if (known) return known.customer_ref;
  const user = await db
    .selectFrom('users')
    .select(['email', 'user_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const { customerRef } = await gateway
    .createCustomer({ userId: String(userId), email: user.email, name: user.user_name })
    .catch((error: unknown) => {
      throw asHttpError(error);
    });
  // Two first calls at once: the unique (user, gateway) keeps one; both use the one kept.
  await db
    .insertInto('gateway_customers')
    .values({ user_id: userId, gateway: provider, customer_ref: customerRef, created_at: now() })
    .onConflict((oc) => oc.columns(['user_id', 'gateway']).doNothing())
    .execute();
  return (await find())!.customer_ref;
}

export async function setCustomerRef(
  db: Db,
  userId: number,
  provider: CardGateway,
  customerRef: string,
): Promise<void> {
  await db
    .updateTable('gateway_customers')
    .set({ customer_ref: customerRef })
    .where('user_id', '=', userId)
    .where('gateway', '=', provider)
    .execute();
}

/**
 * Saves a method the gateway described (a second save of the same one finds the first); the
 * user's first method becomes the default.
 */
export async function saveMethod(
  db: Db,
  userId: number,
  provider: CardGateway,
  info: PaymentMethodInfo,
): Promise<PaymentMethodRow> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('payment_methods')
      .selectAll()
      .where('gateway', '=', provider)
      .where('ref', '=', info.ref)
      .executeTakeFirst();
    if (existing) {
      if (existing.user_id !== userId)
        throw new HttpError(409, 'This payment method belongs to another account');
      return existing;
    }
    const hasDefault = await trx
      .selectFrom('payment_methods')
      .select('id')
      .where('user_id', '=', userId)
      .where('is_default', '=', 1)
      .executeTakeFirst();
    const inserted = await trx
      .insertInto('payment_methods')
      .values({
        user_id: userId,
        gateway: provider,
        ref: info.ref,
        brand: info.brand,
        last4: info.last4,
        exp_month: info.expMonth,
        exp_year: info.expYear,
        is_paypal: info.isPaypal ? 1 : 0,
        email: info.email ?? null,
        is_default: hasDefault ? 0 : 1,
        created_at: now(),
      })
      // The browser's call and the webhook at once: one row, both answer it.
      .onConflict((oc) => oc.columns(['gateway', 'ref']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return (
      inserted ??
      trx
        .selectFrom('payment_methods')
        .selectAll()
        .where('gateway', '=', provider)
        .where('ref', '=', info.ref)
        .executeTakeFirstOrThrow()
    );
  });
}

/** Removes a saved method here; when it was the default, the newest other one becomes it. */
export async function forgetMethod(db: Db, row: PaymentMethodRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('payment_methods').where('id', '=', row.id).execute();
    if (row.is_default !== 1) return;
    const next = await trx
      .selectFrom('payment_methods')
      .select('id')
      .where('user_id', '=', row.user_id)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (next)
      await trx
        .updateTable('payment_methods')
        .set({ is_default: 1 })
        .where('id', '=', next.id)
        .execute();
  });
}

export async function makeDefault(db: Db, row: PaymentMethodRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('payment_methods')
      .set({ is_default: 0 })
      .where('user_id', '=', row.user_id)
      .where('id', '!=', row.id)
      .execute();
    await trx
      .updateTable('payment_methods')
      .set({ is_default: 1 })
      .where('id', '=', row.id)
      .execute();
  });
}
