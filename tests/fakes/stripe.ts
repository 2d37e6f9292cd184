import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { parseFormBody, type FormObject, type FormValue } from './formBody';
import { stripeJsStandIn } from './stripeJs';

/**
 * A local, stateful stand-in for the parts of Stripe's API the panel's Stripe rail uses, written
 * to Stripe's public API reference (docs.stripe.com/api): customers, setup intents, payment
 * methods (list, attach, detach), payment intents (create with `confirm`/`off_session`,
 * retrieve, confirm, cancel), refunds and events. Bodies are form-encoded with bracketed keys;
 * errors are `{error:{type, code, decline_code, message}}` with Stripe's statuses; idempotent
 * requests replay (`Idempotent-Replayed: true`), refuse other parameters under a used key (400
 * `idempotency_error`) and a key still in flight (409). Stripe's test payment methods decide
 * the outcome: `pm_card_visa`, `pm_card_mastercard` succeed, `pm_card_chargeDeclined` and
 * `pm_card_chargeDeclinedInsufficientFunds` are declined, `pm_card_authenticationRequired`
 * asks for 3-D Secure (finished by `POST /_fake/payment_intents/:id/authenticate`, which stands
 * for the buyer in the browser), `pm_card_chargeCustomerFail` is saved but declined when charged;
 * fake-only `pm_fake_500` gets a 500 and `pm_fake_timeout`
 * charges but answers only after `timeoutDelayMs`. Events are signed as Stripe signs them
 * (`Stripe-Signature: t=...,v1=HMAC-SHA256(secret, "t.body")`). The browser's part:
 * `/_fake/{setup,payment}_intents/:id/confirm` (publishable key + client secret, as Stripe.js
 * confirms) and a small stand-in of Stripe.js itself at `GET /v3` (tests/fakes/stripeJs.ts).
 */
export interface FakeStripe {
  /** host/port/protocol to give the SDK. */
  host: string;
  port: number;
  url: string;
  secretKey: string;
  /** What Stripe.js (and the stand-in at `GET /v3`) is given in the browser. */
  publishableKey: string;
  webhookSecret: string;
  /** Successful charges made, all payment intents together: money that moved. */
  chargeCount(): number;
  paymentIntents: Map<string, FakeObject>;
  events: FakeObject[];
  /** Idempotent requests still being answered. */
  inFlight(): number;
  /** Requests seen, as `METHOD /path`. */
  calls: string[];
  /** How long a `pm_fake_timeout` payment takes to answer. */
  timeoutDelayMs: number;
  /** The newest event of a type about an object (the payment intent, payment method...). */
  eventFor(type: string, objectId: string): FakeObject | undefined;
  /** A signed delivery of an event, as Stripe would POST it to a webhook endpoint. */
  webhookDelivery(
    event: FakeObject,
    opts?: { secret?: string; timestamp?: number },
  ): { rawBody: Buffer; headers: Record<string, string> };
  /** POSTs a signed delivery to `url`; gives the endpoint's status. */
  deliver(event: FakeObject, url: string): Promise<number>;
  close(): Promise<void>;
}

export type FakeObject = Record<string, unknown> & { id: string };

const API_VERSION = '2026-10-28.endive';

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, param?: string) =>
  new StripeApiError(400, {
    type: 'invalid_request_error',
    code: param ? 'parameter_missing' : 'resource_missing',
    message,
    ...(param ? { param } : {}),
  });

const missing = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
const now = () => Math.floor(Date.now() / 1000);

type Behaviour =
  | 'succeed'
  | 'decline'
  | 'insufficient'
  | 'auth'
  | 'error500'
  | 'timeout'
  /** Saved without trouble, declined when charged (Stripe's `pm_card_chargeCustomerFail`). */
  | 'declineLater';

/** Stripe's test payment methods (docs.stripe.com/testing) and the fake's own. */
const TEST_METHODS: Record<string, { brand: string; last4: string; behaviour: Behaviour }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeed' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeed' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'decline' },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    behaviour: 'insufficient',
  },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', behaviour: 'auth' },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', behaviour: 'declineLater' },
  pm_fake_500: { brand: 'visa', last4: '0500', behaviour: 'error500' },
  pm_fake_timeout: { brand: 'visa', last4: '0408', behaviour: 'timeout' },
};

/** API 2026-10-28 renamed the request's `payment_method_types` (stripe-node 23's changelog). */
function allowedTypes(body: FormObject): string[] | null {
  if (body.payment_method_types !== undefined)
    throw new StripeApiError(400, {
      type: 'invalid_request_error',
      code: 'parameter_unknown',
      message: 'Received unknown parameter: payment_method_types',
      param: 'payment_method_types',
    });
  const types = body.allowed_payment_method_types;
  return Array.isArray(types) ? types.map(String) : null;
}

const str = (value: FormValue | undefined) => (typeof value === 'string' ? value : undefined);
const obj = (value: FormValue | undefined): FormObject =>
  value && typeof value === 'object' && !Array.isArray(value) ? value : {};

interface Stored {
  paramsHash: string;
  status: number;
  body: unknown;
  inFlight: boolean;
}

export async function startFakeStripe(
  opts: { secretKey?: string; webhookSecret?: string; port?: number } = {},
): Promise<FakeStripe> {
  const secretKey = opts.secretKey ?? 'sk_test_fake';
  const publishableKey = 'pk_test_fake';
  const webhookSecret = opts.webhookSecret ?? 'whsec_fake';
  const app = Fastify({ logger: false });
  const customers = new Map<string, FakeObject>();
  const methods = new Map<string, FakeObject>();
  const behaviours = new Map<string, Behaviour>();
  const setupIntents = new Map<string, FakeObject>();
  const paymentIntents = new Map<string, FakeObject>();
  const refunds = new Map<string, FakeObject>();
  const events: FakeObject[] = [];
  const idempotency = new Map<string, Stored>();
  const calls: string[] = [];
  let charges = 0;
  const fake = { timeoutDelayMs: 2000 };

  const emit = (type: string, object: FakeObject) => {
    events.push({
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      data: { object: structuredClone(object) },
    });
  };

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, parseFormBody(String(body))),
  );
  app.addHook('onRequest', async (req, reply) => {
    calls.push(`${req.method} ${req.url.split('?')[0]}`);
    reply.header('Request-Id', newId('req'));
    // The buyer's browser calls these from the panel's origin (simple requests: no preflight).
    if (req.url.startsWith('/_fake/') || req.url === '/v3') {
      reply.header('access-control-allow-origin', '*');
      return;
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`)
      return reply.code(401).send({
        error: {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided.',
        },
      });
  });

  /** A POST route with Stripe's idempotency semantics (docs: "Idempotent requests"). */
  const post = (
    path: string,
    handler: (req: FastifyRequest, body: FormObject) => Promise<unknown> | unknown,
  ) =>
    app.post(path, async (req: FastifyRequest, reply: FastifyReply) => {
      const body = (req.body ?? {}) as FormObject;
      const key = req.headers['idempotency-key'];
      const storeKey = typeof key === 'string' ? `${secretKey}:${key}` : undefined;
      const paramsHash = createHash('sha256')
        .update(`${req.url}\n${JSON.stringify(body)}`)
        .digest('hex');
      if (storeKey) {
        const stored = idempotency.get(storeKey);
        if (stored?.inFlight)
          return reply.code(409).send({
            error: {
              type: 'idempotency_error',
              code: 'idempotency_key_in_use',
              message:
                'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ' +
                String(key) +
                '. Please try again later.',
            },
          });
        if (stored && stored.paramsHash !== paramsHash)
          return reply.code(400).send({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
            },
          });
        if (stored)
          return reply
            .code(stored.status)
            .header('Idempotent-Replayed', 'true')
            .header('Idempotency-Key', key)
            .send(stored.body);
        idempotency.set(storeKey, { paramsHash, status: 0, body: null, inFlight: true });
      }
      let status = 200;
      let answer: unknown;
      try {
        answer = await handler(req, body);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        status = error.status;
        answer = { error: error.body };
      }
      if (storeKey) {
        // Stripe saves results once the endpoint ran, 500s included ("Idempotent requests").
        idempotency.set(storeKey, { paramsHash, status, body: answer, inFlight: false });
        reply.header('Idempotency-Key', key);
      }
      return reply.code(status).send(answer);
    });

  const get = (path: string, handler: (req: FastifyRequest) => unknown) =>
    app.get(path, async (req, reply) => {
      try {
        return await handler(req);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        return reply.code(error.status).send({ error: error.body });
      }
    });

  const param = (req: FastifyRequest, name: string) =>
    (req.params as Record<string, string>)[name] ?? '';

  const customerOf = (id: string | undefined, paramName = 'customer') => {
    if (id === undefined) return undefined;
    const customer = customers.get(id);
    if (!customer) throw missing('customer', id, paramName);
    return customer;
  };

  /** A payment method by id; Stripe's test names make a new method, as Stripe does. */
  const methodOf = (id: string) => {
    const test = TEST_METHODS[id];
    if (test) {
      const method: FakeObject = {
        id: newId('pm'),
        object: 'payment_method',
        type: 'card',
        created: now(),
        customer: null,
        livemode: false,
        card: {
          brand: test.brand,
          last4: test.last4,
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          funding: 'credit',
          country: 'US',
        },
        billing_details: {},
      };
      methods.set(method.id, method);
      behaviours.set(method.id, test.behaviour);
      return method;
    }
    const method = methods.get(id);
    if (!method) throw missing('payment_method', id, 'payment_method');
    return method;
  };

  const list = (url: string, items: FakeObject[], query: Record<string, string>) => {
    const limit = Math.min(100, Number(query.limit ?? 10) || 10);
    let start = 0;
    if (query.starting_after) start = items.findIndex((i) => i.id === query.starting_after) + 1;
    const data = items.slice(start, start + limit);
    return { object: 'list', url, has_more: start + limit < items.length, data };
  };

  const attach = (method: FakeObject, customerId: string) => {
    if (method.customer && method.customer !== customerId)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: 'The payment method you provided has already been attached to a customer.',
      });
    if (method.customer !== customerId) {
      method.customer = customerId;
      emit('payment_method.attached', method);
    }
    return method;
  };

  // Customers
  post('/v1/customers', (_req, body) => {
    const customer: FakeObject = {
      id: newId('cus'),
      object: 'customer',
      created: now(),
      email: str(body.email) ?? null,
      name: str(body.name) ?? null,
      metadata: obj(body.metadata),
      invoice_settings: { default_payment_method: null },
      livemode: false,
    };
    customers.set(customer.id, customer);
    return customer;
  });
  get('/v1/customers/:id', (req) => customerOf(param(req, 'id'), 'id'));

  // Setup intents: saving a card for later (Stripe.js confirms it in the browser).
  post('/v1/setup_intents', (_req, body) => {
    const customer = customerOf(str(body.customer));
    const id = newId('seti');
    const intent: FakeObject = {
      id,
      object: 'setup_intent',
      created: now(),
      customer: customer?.id ?? null,
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      status: 'requires_payment_method',
      usage: str(body.usage) ?? 'off_session',
      payment_method: null,
      allowed_payment_method_types: allowedTypes(body),
      payment_method_types: allowedTypes(body) ?? ['card'],
      livemode: false,
    };
    setupIntents.set(id, intent);
    return intent;
  });
  const setupIntentOf = (id: string) => {
    const intent = setupIntents.get(id);
    if (!intent) throw missing('setup_intent', id, 'intent');
    return intent;
  };
  get('/v1/setup_intents/:id', (req) => {
    const intent = setupIntentOf(param(req, 'id'));
    const { expand } = parseFormBody(req.url.split('?')[1] ?? '');
    const pm = intent.payment_method;
    // `expand[]=payment_method` gives the object in place of its id (API "Expanding responses").
    if (Array.isArray(expand) && expand.includes('payment_method') && typeof pm === 'string')
      return { ...intent, payment_method: methods.get(pm) ?? pm };
    return intent;
  });
  post('/v1/setup_intents/:id/confirm', (req, body) => {
    const intent = setupIntentOf(param(req, 'id'));
    const pm = str(body.payment_method);
    if (!pm) throw invalid('Missing required param: payment_method.', 'payment_method');
    const method = methodOf(pm);
    const behaviour = behaviours.get(method.id) ?? 'succeed';
    if (behaviour === 'decline' || behaviour === 'insufficient')
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: behaviour === 'decline' ? 'generic_decline' : 'insufficient_funds',
        message: 'Your card was declined.',
        setup_intent: intent,
      });
    if (typeof intent.customer === 'string') attach(method, intent.customer);
    Object.assign(intent, { status: 'succeeded', payment_method: method.id });
    emit('setup_intent.succeeded', intent);
    return intent;
  });

  // Payment methods
  get('/v1/payment_methods', (req) => {
    const query = req.query as Record<string, string>;
    const customer = customerOf(query.customer);
    const items = [...methods.values()].filter(
      (m) => m.customer === customer?.id && (!query.type || m.type === query.type),
    );
    return list('/v1/payment_methods', items, query);
  });
  get('/v1/payment_methods/:id', (req) => methodOf(param(req, 'id')));
  post('/v1/payment_methods/:id/attach', (req, body) => {
    const customer = customerOf(str(body.customer));
    if (!customer) throw invalid('Missing required param: customer.', 'customer');
    return attach(methodOf(param(req, 'id')), customer.id);
  });
  post('/v1/payment_methods/:id/detach', (req) => {
    const method = methodOf(param(req, 'id'));
    if (!method.customer)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message:
          'The payment method you provided is not attached to a customer so detachment is impossible.',
      });
    method.customer = null;
    emit('payment_method.detached', method);
    return method;
  });

  // Payment intents
  const intentOf = (id: string) => {
    const intent = paymentIntents.get(id);
    if (!intent) throw missing('payment_intent', id, 'intent');
    return intent;
  };

  const succeed = (intent: FakeObject) => {
    charges += 1;
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: newId('ch'),
      next_action: null,
      last_payment_error: null,
    });
    emit('payment_intent.succeeded', intent);
  };

  /** Confirms an intent with a method, as Stripe does: the method's test behaviour decides. */
  const confirm = async (intent: FakeObject, method: FakeObject, offSession: boolean) => {
    if (
      typeof intent.customer === 'string' &&
      method.customer &&
      method.customer !== intent.customer
    )
      throw invalid('The provided PaymentMethod is attached to another customer.');
    intent.payment_method = method.id;
    const behaviour = behaviours.get(method.id) ?? 'succeed';
    const decline = (code: string, declineCode: string, message: string) => {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: {
          type: 'card_error',
          code,
          decline_code: declineCode,
          message,
          payment_method: method,
        },
      });
      emit('payment_intent.payment_failed', intent);
      return new StripeApiError(402, {
        type: 'card_error',
        code,
        decline_code: declineCode,
        message,
        payment_intent: structuredClone(intent),
        payment_method: method,
      });
    };
    switch (behaviour) {
      case 'succeed':
        succeed(intent);
        return intent;
      case 'timeout':
        succeed(intent);
        await new Promise((resolve) => setTimeout(resolve, fake.timeoutDelayMs));
        return intent;
      case 'decline':
      case 'declineLater':
        throw decline('card_declined', 'generic_decline', 'Your card was declined.');
      case 'insufficient':
        throw decline('card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
      case 'auth':
        if (offSession)
          throw decline(
            'authentication_required',
            'authentication_required',
            'Your card was declined. This transaction requires authentication.',
          );
        Object.assign(intent, {
          status: 'requires_action',
          next_action: {
            type: 'use_stripe_sdk',
            use_stripe_sdk: { type: 'three_d_secure_redirect' },
          },
        });
        emit('payment_intent.requires_action', intent);
        return intent;
      case 'error500':
        throw new StripeApiError(500, {
          type: 'api_error',
          message: 'An unknown error occurred',
        });
    }
  };

  post('/v1/payment_intents', async (_req, body) => {
    const amount = Number(str(body.amount));
    if (!Number.isSafeInteger(amount) || amount < 1)
      throw invalid('Missing required param: amount.', 'amount');
    const currency = str(body.currency);
    if (!currency || !/^[a-z]{3}$/.test(currency))
      throw invalid('Missing required param: currency.', 'currency');
    const customer = customerOf(str(body.customer));
    const confirmNow = str(body.confirm) === 'true';
    const offSession = str(body.off_session) === 'true';
    if (offSession && !confirmNow)
      throw invalid('off_session can only be used when confirm=true.', 'off_session');
    const pm = str(body.payment_method);
    const method = pm ? methodOf(pm) : undefined;
    const id = newId('pi');
    const intent: FakeObject = {
      id,
      object: 'payment_intent',
      created: now(),
      amount,
      amount_received: 0,
      currency,
      customer: customer?.id ?? null,
      description: str(body.description) ?? null,
      metadata: obj(body.metadata),
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      status: method ? 'requires_confirmation' : 'requires_payment_method',
      payment_method: method?.id ?? null,
      allowed_payment_method_types: allowedTypes(body),
      payment_method_types: allowedTypes(body) ?? ['card'],
      next_action: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
    };
    // A 500 answers before anything is stored, as a failure inside Stripe would.
    if (method && confirmNow && behaviours.get(method.id) === 'error500')
      return confirm(intent, method, offSession);
    paymentIntents.set(id, intent);
    if (method && confirmNow) return confirm(intent, method, offSession);
    return intent;
  });
  get('/v1/payment_intents/:id', (req) => intentOf(param(req, 'id')));
  post('/v1/payment_intents/:id/confirm', async (req, body) => {
    const intent = intentOf(param(req, 'id'));
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${String(intent.status)}, so it cannot be confirmed.`,
        payment_intent: intent,
      });
    const pm = str(body.payment_method) ?? (intent.payment_method as string | null);
    if (!pm) throw invalid('Missing required param: payment_method.', 'payment_method');
    return confirm(intent, methodOf(pm), str(body.off_session) === 'true');
  });
  post('/v1/payment_intents/:id/cancel', (req, body) => {
    const intent = intentOf(param(req, 'id'));
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`,
      });
    Object.assign(intent, {
      status: 'canceled',
      cancellation_reason: str(body.cancellation_reason) ?? null,
      canceled_at: now(),
    });
    emit('payment_intent.canceled', intent);
    return intent;
  });

  // Refunds
  post('/v1/refunds', (_req, body) => {
    const piId = str(body.payment_intent);
    if (!piId) throw invalid('Missing required param: payment_intent.', 'payment_intent');
    const intent = intentOf(piId);
    if (intent.status !== 'succeeded')
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent does not have a successful charge to refund.`,
      });
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === piId)
      .reduce((sum, r) => sum + Number(r.amount), 0);
    const left = Number(intent.amount_received) - refunded;
    const amount = str(body.amount) === undefined ? left : Number(str(body.amount));
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        param: 'amount',
      });
    const refund: FakeObject = {
      id: newId('re'),
      object: 'refund',
      created: now(),
      amount,
      currency: intent.currency,
      payment_intent: piId,
      charge: intent.latest_charge,
      status: 'succeeded',
    };
    refunds.set(refund.id, refund);
    emit('charge.refunded', {
      id: String(intent.latest_charge),
      object: 'charge',
      amount: intent.amount,
      amount_refunded: refunded + amount,
      refunded: refunded + amount === intent.amount_received,
      payment_intent: piId,
      metadata: intent.metadata,
    });
    return refund;
  });

  get('/v1/events/:id', (req) => {
    const event = events.find((e) => e.id === param(req, 'id'));
    if (!event) throw missing('event', param(req, 'id'));
    return event;
  });

  // The buyer in the browser: Stripe.js's 3-D Secure challenge, passed or failed.
  app.post('/_fake/payment_intents/:id/authenticate', async (req, reply) => {
    const intent = paymentIntents.get(param(req, 'id'));
    if (!intent) return reply.code(404).send({ error: 'no such payment intent' });
    const fail = (req.query as Record<string, string>).result === 'fail';
    if (fail) {
      Object.assign(intent, {
        status: 'requires_payment_method',
        next_action: null,
        last_payment_error: {
          type: 'card_error',
          code: 'payment_intent_authentication_failure',
          message:
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        },
      });
      emit('payment_intent.payment_failed', intent);
    } else succeed(intent);
    return intent;
  });

  /**
   * Stripe.js in the browser: it confirms a setup or a payment with the publishable key and the
   * intent's client secret (never the secret key). The stand-in script at `GET /v3` calls these;
   * tests call them to stand for the buyer. Form bodies and `*` CORS keep them simple requests.
   */
  const browser = (
    path: string,
    intents: () => Map<string, FakeObject>,
    run: (intent: FakeObject, pm: string) => Promise<unknown> | unknown,
  ) =>
    app.post(path, async (req, reply) => {
      const body = (req.body ?? {}) as FormObject;
      const intent = intents().get(param(req, 'id'));
      if (
        !intent ||
        str(body.client_secret) !== intent.client_secret ||
        str(body.key) !== publishableKey
      )
        return reply.code(404).send({
          error: {
            type: 'invalid_request_error',
            message: 'No such intent for this client secret.',
          },
        });
      const pm = str(body.payment_method);
      if (!pm) return reply.code(400).send({ error: { message: 'Missing payment_method.' } });
      try {
        return await run(intent, pm);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        return reply.code(error.status).send({ error: error.body });
      }
    });
  browser(
    '/_fake/setup_intents/:id/confirm',
    () => setupIntents,
    (intent, pm) => {
      const method = methodOf(pm);
      const behaviour = behaviours.get(method.id) ?? 'succeed';
      if (behaviour === 'decline' || behaviour === 'insufficient')
        throw new StripeApiError(402, {
          type: 'card_error',
          code: 'card_declined',
          decline_code: behaviour === 'decline' ? 'generic_decline' : 'insufficient_funds',
          message: 'Your card was declined.',
        });
      if (typeof intent.customer === 'string') attach(method, intent.customer);
      Object.assign(intent, { status: 'succeeded', payment_method: method.id });
      emit('setup_intent.succeeded', intent);
      return intent;
    },
  );
  browser(
    '/_fake/payment_intents/:id/confirm',
    () => paymentIntents,
    (intent, pm) => confirm(intent, methodOf(pm), false),
  );
  app.get('/v3', async (_req, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .send(stripeJsStandIn(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`)),
  );

  const sign = (payload: string, secret: string, timestamp: number) =>
    createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');

  const webhookDelivery: FakeStripe['webhookDelivery'] = (event, options = {}) => {
    const payload = JSON.stringify(event, null, 2);
    const timestamp = options.timestamp ?? now();
    const signature = sign(payload, options.secret ?? webhookSecret, timestamp);
    return {
      rawBody: Buffer.from(payload),
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': `t=${timestamp},v1=${signature}`,
      },
    };
  };

  const address = await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const { port } = new URL(address);
  return {
    host: '127.0.0.1',
    port: Number(port),
    url: address,
    secretKey,
    publishableKey,
    webhookSecret,
    chargeCount: () => charges,
    inFlight: () => [...idempotency.values()].filter((s) => s.inFlight).length,
    paymentIntents,
    events,
    calls,
    get timeoutDelayMs() {
      return fake.timeoutDelayMs;
    },
    set timeoutDelayMs(ms: number) {
      fake.timeoutDelayMs = ms;
    },
    eventFor: (type, objectId) =>
      events.findLast(
        (e) => e.type === type && (e.data as { object: FakeObject }).object.id === objectId,
      ),
    webhookDelivery,
    deliver: async (event, url) => {
      const { rawBody, headers } = webhookDelivery(event);
      const response = await fetch(url, { method: 'POST', headers, body: rawBody.toString() });
      return response.status;
    },
    close: () => app.close(),
  };
}
