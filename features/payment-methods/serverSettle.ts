import type { FastifyInstance } from 'fastify';
import type { After } from '../../server/events/types';
import { HttpError } from '../../server/http/errors';
import {
  WebhookSignatureError,
  type GatewayName,
  type NormalizedEvent,
  type PaymentResult,
} from '../payments/serverApi';
import { asHttpError, forgetMethod, saveMethod, setCustomerRef } from './serverStore';
import { gatewayOf } from './serverGateways';
import type { CardGateway } from './serverTables';

/** The payload of `payment.settled` (billing's `SettledPayment`). */
export interface SettledPayment {
  gateway: GatewayName;
  gatewayPaymentId: string;
  invoiceId: number | null;
  result: PaymentResult;
}

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * A payment's state as the gateway has it now, raised once per verified, deduplicated
     * webhook or PayPal return, after the panel fetched the payment again (never from a
     * webhook's body): billing settles the invoice from it.
     */
    'payment.settled': After<SettledPayment>;
  }
}

const now = () => new Date().toISOString();

/** The invoice a payment pays: as the panel recorded it when it started the payment, or as the gateway's signed event names it. */
async function invoiceOf(
  app: FastifyInstance,
  gateway: CardGateway,
  paymentRef: string,
  named?: string,
): Promise<number | null> {
  const row = await app.db
    .selectFrom('gateway_payments')
    .select('invoice_id')
    .where('gateway', '=', gateway)
    .where('payment_ref', '=', paymentRef)
    .executeTakeFirst();
  if (row) return row.invoice_id;
  const id = Number(named);
  return named && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Records an event id; false when it was seen before (the unique key). */
async function firstSight(app: FastifyInstance, gateway: string, eventId: string, type: string) {
  const row = await app.db
    .insertInto('webhook_events')
    .values({ gateway, event_id: eventId, type, received_at: now(), processed_at: null })
    .onConflict((oc) => oc.columns(['gateway', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Raises `payment.settled` with the state the gateway has now. */
async function settle(
  app: FastifyInstance,
  gateway: CardGateway,
  paymentRef: string,
  result: PaymentResult,
  named?: string,
) {
  await app.events.emit('payment.settled', {
    gateway,
    gatewayPaymentId: result.gatewayPaymentId || paymentRef,
    invoiceId: await invoiceOf(app, gateway, paymentRef, named),
    result,
  });
}

const PAYMENT_EVENTS = new Set([
  'payment.succeeded',
  'payment.failed',
  'payment.requires_action',
  'payment.processing',
  'payment.canceled',
  'payment.approved',
]);

/** What one verified event changes: the objects it names are fetched again first. */
async function processEvent(app: FastifyInstance, gateway: CardGateway, event: NormalizedEvent) {
  const { gateway: rail } = await gatewayOf(app, gateway);
  if (PAYMENT_EVENTS.has(event.type) && event.gatewayPaymentId) {
    const id = event.gatewayPaymentId;
    const result =
      event.type === 'payment.approved'
        ? // PayPal: the buyer approved; the panel captures (once: PayPal-Request-Id).
          await rail.complete({ gatewayPaymentId: id, idempotencyKey: `capture-${id}` })
        : await rail.retrieve({ gatewayPaymentId: id });
    await settle(app, gateway, id, result, event.invoiceId);
    return;
  }
  if (event.type === 'setup.succeeded' && event.objectRef) {
    // A card saved while the browser went away before it called the completion route.
    const setup = await app.db
      .selectFrom('payment_setups')
      .selectAll()
      .where('gateway', '=', gateway)
      .where('setup_ref', '=', event.objectRef)
      .executeTakeFirst();
    if (setup) await finishSetup(app, setup.user_id, gateway, setup.setup_ref);
    return;
  }
  if (event.type === 'payment_method.detached' && event.objectRef) {
    const row = await app.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('gateway', '=', gateway)
      .where('ref', '=', event.objectRef)
      .executeTakeFirst();
    if (row) await forgetMethod(app.db, row);
  }
}

/** Finishes a setup the user started: the gateway says what was saved (never the browser). */
export async function finishSetup(
  app: FastifyInstance,
  userId: number,
  gateway: CardGateway,
  setupRef: string,
) {
  const { gateway: rail } = await gatewayOf(app, gateway);
  const customer = await app.db
    .selectFrom('gateway_customers')
    .select('customer_ref')
    .where('user_id', '=', userId)
    .where('gateway', '=', gateway)
    .executeTakeFirst();
  if (!customer) throw new HttpError(404, 'No such setup');
  const done = await rail
    .completeSetup({ customerRef: customer.customer_ref, setupRef })
    .catch((error: unknown) => {
      throw asHttpError(error);
    });
  if (done.customerRef !== customer.customer_ref)
    await setCustomerRef(app.db, userId, gateway, done.customerRef);
  // The setup stays: the browser's call and Stripe's webhook may both finish it, in any order,
  // and each gets the one saved method (the gateway answers the same, the ref is unique here).
  return saveMethod(app.db, userId, gateway, done.method);
}

/** Signature failures per client address in the current minute (a forger is slowed). */
const failures = new Map<string, { count: number; until: number }>();
const FAILURES_PER_MINUTE = 20;

function tooManyFailures(ip: string): boolean {
  const entry = failures.get(ip);
  return !!entry && entry.until > Date.now() && entry.count >= FAILURES_PER_MINUTE;
}

function countFailure(ip: string) {
  const entry = failures.get(ip);
  if (!entry || entry.until <= Date.now())
    failures.set(ip, { count: 1, until: Date.now() + 60_000 });
  else entry.count += 1;
  if (failures.size > 10_000) failures.clear();
}

/**
 * A webhook: verified on its raw bytes, recorded once by its event id (a repeated delivery
 * answers 200 and does nothing), then processed. When processing fails the record goes again
 * and the answer is an error, so the gateway delivers the event again later.
 */
export async function receiveWebhook(
  app: FastifyInstance,
  gateway: CardGateway,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  ip: string,
): Promise<{ received: boolean; duplicate: boolean }> {
  if (tooManyFailures(ip))
    throw new HttpError(429, 'Too many webhooks with bad signatures, try again in a minute');
  const { gateway: rail } = await gatewayOf(app, gateway);
  let event: NormalizedEvent;
  try {
    event = await rail.parseWebhook(rawBody, headers);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw asHttpError(error);
    countFailure(ip);
    throw new HttpError(400, `The webhook's signature does not match: ${error.message}`);
  }
  if (!event.eventId) throw new HttpError(400, 'The webhook names no event id');
  const id = await firstSight(app, gateway, event.eventId, event.gatewayType);
  if (id === null) return { received: true, duplicate: true };
  try {
    await processEvent(app, gateway, event);
  } catch (error) {
    await app.db.deleteFrom('webhook_events').where('id', '=', id).execute();
    throw asHttpError(error);
  }
  await app.db
    .updateTable('webhook_events')
    .set({ processed_at: now() })
    .where('id', '=', id)
    .execute();
  return { received: true, duplicate: false };
}

/**
 * The buyer is back from PayPal's approve page: the panel captures the order itself (never
 * believing the redirect) and raises `payment.settled` once per order and outcome.
 */
export async function paypalReturned(
  app: FastifyInstance,
  orderId: string,
): Promise<PaymentResult> {
  const { gateway: rail } = await gatewayOf(app, 'paypal');
  const result = await rail.complete({
    gatewayPaymentId: orderId,
    idempotencyKey: `capture-${orderId}`,
  });
  const seen = await firstSight(app, 'paypal', `return:${orderId}:${result.status}`, 'return');
  if (seen !== null) {
    await settle(app, 'paypal', orderId, result);
    await app.db
      .updateTable('webhook_events')
      .set({ processed_at: now() })
      .where('id', '=', seen)
      .execute();
  }
  return result;
}
