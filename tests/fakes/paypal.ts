import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A local, stateful stand-in for the parts of PayPal's REST API the panel's PayPal rail uses,
 * written to PayPal's public API reference (developer.paypal.com/api/rest): the OAuth2
 * client-credentials token (`POST /v1/oauth2/token`), Orders v2 (create with `PayPal-Request-Id`
 * replayed, get, capture), refunds of captures, Vault v3 setup and payment tokens, and
 * `POST /v1/notifications/verify-webhook-signature`. Errors are PayPal's
 * `{name, message, debug_id, details:[{issue, description}]}`. The buyer's browser gets a
 * plain approve page (`GET /checkoutnow?token=`, the order's approve link) whose button sends it
 * to the order's return_url; control routes stand for the buyer without a browser:
 * `POST /_fake/orders/:id/approve` and `/_fake/setup-tokens/:id/approve`. Switches:
 * `declineCaptures` (the buyer's funding is refused: 422 INSTRUMENT_DECLINED), `failNext`
 * (the next API call answers 500, or only after `delayMs`). The fake signs the webhooks it
 * sends with its own key, over PayPal's documented message
 * `transmission_id|transmission_time|webhook_id|crc32(body)`, and its verify endpoint checks
 * that (PayPal signs with a certificate; the panel never checks the signature itself).
 */
export interface FakePaypal {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** Captures that completed: money that moved. */
  captureCount(): number;
  /** Tokens handed out by the token endpoint. */
  tokensIssued(): number;
  orders: Map<string, PaypalObject>;
  events: PaypalObject[];
  calls: string[];
  declineCaptures: boolean;
  /** The next call to /v1, /v2 or /v3 (not the token) fails this way. */
  failNext(kind: 'error500' | 'slow', delayMs?: number): void;
  /** Tokens issued from now on live this many seconds. */
  tokenLifetimeSeconds: number;
  /** Ends every token handed out so far (as when PayPal revokes them). */
  revokeTokens(): void;
  /** Where the buyer is sent to approve an order (PayPal's checkout page). */
  approveUrl(orderId: string): string;
  /** A delivery of an event as PayPal POSTs it, signed for `webhookId`. */
  webhookDelivery(
    event: PaypalObject,
    opts?: { webhookId?: string },
  ): { rawBody: Buffer; headers: Record<string, string> };
  /** POSTs a signed delivery to `url`; gives the endpoint's status. */
  deliver(event: PaypalObject, url: string): Promise<number>;
  close(): Promise<void>;
}

export type PaypalObject = Record<string, unknown> & { id: string };

class PaypalApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    readonly issue: string,
    description: string,
  ) {
    super(description);
  }
}

const MESSAGES: Record<string, string> = {
  UNPROCESSABLE_ENTITY:
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  INTERNAL_SERVER_ERROR: 'An internal server error occurred.',
};

/** PayPal's currencies without decimals (developer.paypal.com "Currency codes"). */
const NO_DECIMALS = new Set(['HUF', 'JPY', 'TWD']);
const PAYPAL_CURRENCIES = new Set([
  'AUD', 'BRL', 'CAD', 'CNY', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MYR', 'MXN',
  'TWD', 'NZD', 'NOK', 'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD',
]); // prettier-ignore

const newId = (length = 17) => randomBytes(length).toString('hex').toUpperCase().slice(0, length);
const iso = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** Checks an amount as PayPal does: a supported currency, a plain value, its decimals. */
function checkAmount(amount: unknown): { currency_code: string; value: string } {
  const { currency_code: currency, value } = (amount ?? {}) as Record<string, unknown>;
  if (typeof currency !== 'string' || !PAYPAL_CURRENCIES.has(currency))
    throw new PaypalApiError(
      422,
      'UNPROCESSABLE_ENTITY',
      'CURRENCY_NOT_SUPPORTED',
      'Currency code is not currently supported.',
    );
  const decimals = NO_DECIMALS.has(currency) ? 0 : 2;
  const pattern = decimals === 0 ? /^\d{1,15}$/ : /^\d{1,15}(\.\d{1,2})?$/;
  if (typeof value !== 'string' || !pattern.test(value))
    throw new PaypalApiError(
      422,
      'UNPROCESSABLE_ENTITY',
      'DECIMAL_PRECISION',
      'If the currency supports decimals, only two decimal place precision is supported.',
    );
  return { currency_code: currency, value };
}

/** Hundredths (or units) of a PayPal value, for the fake's own sums. */
const unitsOf = (value: string) => Math.round(Number(value) * 100);

export async function startFakePaypal(opts: { port?: number } = {}): Promise<FakePaypal> {
  const clientId = 'fake-client-id';
  const clientSecret = 'fake-client-secret';
  const webhookId = 'WH-FAKE-ENDPOINT';
  const signingKey = randomBytes(32);
  const app = Fastify({ logger: false });
  const tokens = new Map<string, number>();
  const orders = new Map<string, PaypalObject>();
  const captures = new Map<string, { orderId: string; capture: PaypalObject }>();
  const refunds = new Map<string, PaypalObject>();
  const setupTokens = new Map<string, PaypalObject>();
  const paymentTokens = new Map<string, PaypalObject>();
  const replays = new Map<string, { status: number; body: unknown }>();
  const events: PaypalObject[] = [];
  const calls: string[] = [];
  /** Where each order's buyer goes back to (its `experience_context`), for the approve page. */
  const returns = new Map<string, { returnUrl?: string; cancelUrl?: string }>();
  let captureCount = 0;
  let issued = 0;
  let nextFailure: { kind: 'error500' | 'slow'; delayMs: number } | undefined;
  const state = { declineCaptures: false, tokenLifetimeSeconds: 32400 };
  let base = '';

  const emit = (
    eventType: string,
    resourceType: string,
    resource: PaypalObject,
    summary: string,
  ) => {
    events.push({
      id: `WH-${newId(8)}-${newId(17)}`,
      event_version: '1.0',
      create_time: iso(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary,
      resource: structuredClone(resource),
      links: [],
    });
  };

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post('/v1/oauth2/token', async (req, reply) => {
    calls.push('POST /v1/oauth2/token');
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected)
      return reply
        .code(401)
        .send({ error: 'invalid_client', error_description: 'Client Authentication failed' });
    if ((req.body as Record<string, string>).grant_type !== 'client_credentials')
      return reply
        .code(400)
        .send({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    const token = `A21AA${randomBytes(24).toString('base64url')}`;
    tokens.set(token, Date.now() + state.tokenLifetimeSeconds * 1000);
    issued += 1;
    return {
      scope: 'https://uri.paypal.com/services/payments/payment',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-80W284485P519543T',
      expires_in: state.tokenLifetimeSeconds,
      nonce: `${iso()}${newId(8)}`,
    };
  });

  /** An API route: bearer token, the failure switch, PayPal-Request-Id replay, errors. */
  const route = (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    handler: (req: FastifyRequest) => unknown,
    status = 200,
  ) =>
    app.route({
      method,
      url: path,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        calls.push(`${method} ${req.url.split('?')[0]}`);
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        if ((tokens.get(token) ?? 0) < Date.now())
          return reply.code(401).send({
            name: 'AUTHENTICATION_FAILURE',
            message:
              'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
            links: [],
          });
        const failure = nextFailure;
        nextFailure = undefined;
        if (failure?.kind === 'error500')
          return reply.code(500).send({
            name: 'INTERNAL_SERVER_ERROR',
            message: MESSAGES.INTERNAL_SERVER_ERROR,
            debug_id: newId(13).toLowerCase(),
          });
        const requestId = req.headers['paypal-request-id'];
        const replayKey =
          typeof requestId === 'string' ? `${req.url.split('?')[0]}:${requestId}` : undefined;
        const replay = replayKey ? replays.get(replayKey) : undefined;
        let answer: { status: number; body: unknown };
        if (replay) answer = replay;
        else {
          try {
            answer = { status, body: await handler(req) };
          } catch (error) {
            if (!(error instanceof PaypalApiError)) throw error;
            answer = {
              status: error.status,
              body: {
                name: error.errorName,
                message: MESSAGES[error.errorName] ?? error.message,
                debug_id: newId(13).toLowerCase(),
                details: [{ issue: error.issue, description: error.message }],
                links: [],
              },
            };
          }
          // A request id replays the request's success; a refusal may be tried again.
          if (replayKey && answer.status < 300) replays.set(replayKey, answer);
        }
        // The work is done; only the answer is late (a timeout at the panel's end).
        if (failure?.kind === 'slow')
          await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
        return reply.code(answer.status).send(answer.body);
      },
    });

  const param = (req: FastifyRequest, name: string) =>
    (req.params as Record<string, string>)[name] ?? '';
  const bodyOf = (req: FastifyRequest) => (req.body ?? {}) as Record<string, unknown>;
  const notFound = () =>
    new PaypalApiError(
      404,
      'RESOURCE_NOT_FOUND',
      'INVALID_RESOURCE_ID',
      'Specified resource ID does not exist. Please check the resource ID and try again.',
    );
  const orderOf = (id: string) => {
    const order = orders.get(id);
    if (!order) throw notFound();
    return order;
  };
  const unitOf = (order: PaypalObject) =>
    (order.purchase_units as Array<Record<string, unknown>>)[0] as Record<string, unknown>;

  /** Takes the order's money: a capture, or a decline when the switch is on. */
  const capture = (order: PaypalObject) => {
    const unit = unitOf(order);
    if (state.declineCaptures) {
      emit('PAYMENT.CAPTURE.DENIED', 'capture', { id: newId(), status: 'DECLINED', custom_id: unit.custom_id, supplementary_data: { related_ids: { order_id: order.id } } }, 'Payment denied'); // prettier-ignore
      throw new PaypalApiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const done: PaypalObject = {
      id: newId(),
      status: 'COMPLETED',
      amount: unit.amount,
      final_capture: true,
      custom_id: unit.custom_id,
      seller_protection: { status: 'ELIGIBLE' },
      create_time: iso(),
      update_time: iso(),
      supplementary_data: { related_ids: { order_id: order.id } },
    };
    unit.payments = { captures: [done] };
    order.status = 'COMPLETED';
    order.update_time = iso();
    captures.set(done.id, { orderId: order.id, capture: done });
    captureCount += 1;
    emit('PAYMENT.CAPTURE.COMPLETED', 'capture', done, 'Payment completed');
    return order;
  };

  route(
    'POST',
    '/v2/checkout/orders',
    (req) => {
      const body = bodyOf(req);
      if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE')
        throw new PaypalApiError(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.'); // prettier-ignore
      const units = body.purchase_units;
      if (!Array.isArray(units) || units.length !== 1)
        throw new PaypalApiError(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.'); // prettier-ignore
      const unit = units[0] as Record<string, unknown>;
      const amount = checkAmount(unit.amount);
      const source = (body.payment_source ?? {}) as { paypal?: Record<string, unknown> };
      const id = newId();
      const vaultId = source.paypal?.vault_id;
      const order: PaypalObject = {
        id,
        intent: body.intent,
        status: source.paypal ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
        purchase_units: [
          { reference_id: unit.reference_id ?? 'default', amount, custom_id: unit.custom_id, description: unit.description },
        ],
        create_time: iso(),
        links: [
          { href: `${base}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
          { href: `${base}/checkoutnow?token=${id}`, rel: source.paypal ? 'payer-action' : 'approve', method: 'GET' },
          { href: `${base}/v2/checkout/orders/${id}/capture`, rel: 'capture', method: 'POST' },
        ],
      }; // prettier-ignore
      if (typeof vaultId === 'string') {
        if (!paymentTokens.has(vaultId)) throw notFound();
        // A saved PayPal account pays without the buyer: the order completes at once.
        order.status = 'APPROVED';
        order.links = [{ href: `${base}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' }];
        orders.set(id, order);
        return capture(order);
      }
      const experience = (source.paypal?.experience_context ?? {}) as Record<string, unknown>;
      returns.set(id, {
        returnUrl: typeof experience.return_url === 'string' ? experience.return_url : undefined,
        cancelUrl: typeof experience.cancel_url === 'string' ? experience.cancel_url : undefined,
      });
      orders.set(id, order);
      return order;
    },
    201,
  );
  route('GET', '/v2/checkout/orders/:id', (req) => orderOf(param(req, 'id')));
  route(
    'POST',
    '/v2/checkout/orders/:id/capture',
    (req) => {
      const order = orderOf(param(req, 'id'));
      if (order.status === 'COMPLETED')
        throw new PaypalApiError(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.If \'intent=CAPTURE\' only one capture per order is allowed.'); // prettier-ignore
      if (order.status !== 'APPROVED')
        throw new PaypalApiError(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.'); // prettier-ignore
      return capture(order);
    },
    201,
  );
  route(
    'POST',
    '/v2/payments/captures/:id/refund',
    (req) => {
      const found = captures.get(param(req, 'id'));
      if (!found) throw notFound();
      const paid = found.capture.amount as { currency_code: string; value: string };
      const body = bodyOf(req);
      const amount = body.amount ? checkAmount(body.amount) : paid;
      const already = [...refunds.values()]
        .filter((r) => r.capture_id === found.capture.id)
        .reduce((sum, r) => sum + unitsOf((r.amount as { value: string }).value), 0);
      if (amount.currency_code !== paid.currency_code || already + unitsOf(amount.value) > unitsOf(paid.value))
        throw new PaypalApiError(422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.'); // prettier-ignore
      const refund: PaypalObject = {
        id: newId(),
        status: 'COMPLETED',
        amount,
        capture_id: found.capture.id,
        custom_id: found.capture.custom_id,
        create_time: iso(),
        links: [
          { href: `${base}/v2/payments/captures/${found.capture.id}`, rel: 'up', method: 'GET' },
        ],
      };
      refunds.set(refund.id, refund);
      const fully = already + unitsOf(amount.value) === unitsOf(paid.value);
      found.capture.status = fully ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
      const { capture_id: _omit, ...shown } = refund;
      void _omit;
      emit('PAYMENT.CAPTURE.REFUNDED', 'refund', shown as PaypalObject, 'A payment was refunded');
      return shown;
    },
    201,
  );

  // Vault v3: saving a PayPal account for renewals without the buyer.
  route(
    'POST',
    '/v3/vault/setup-tokens',
    (req) => {
      const body = bodyOf(req);
      const customer = (body.customer ?? {}) as { id?: string };
      const id = newId(12);
      const token: PaypalObject = {
        id,
        customer: { id: customer.id ?? `c${newId(10)}` },
        status: 'PAYER_ACTION_REQUIRED',
        payment_source: { paypal: {} },
        links: [
          { href: `${base}/agreements/approve?approval_session_id=${id}`, rel: 'approve', method: 'GET' },
          { href: `${base}/v3/vault/setup-tokens/${id}`, rel: 'self', method: 'GET' },
        ],
      }; // prettier-ignore
      setupTokens.set(id, token);
      return token;
    },
    201,
  );
  route(
    'POST',
    '/v3/vault/payment-tokens',
    (req) => {
      const source = (bodyOf(req).payment_source ?? {}) as {
        token?: { id?: string; type?: string };
      };
      const setup = setupTokens.get(source.token?.id ?? '');
      if (!setup || source.token?.type !== 'SETUP_TOKEN') throw notFound();
      if (setup.status !== 'APPROVED')
        throw new PaypalApiError(422, 'UNPROCESSABLE_ENTITY', 'TOKEN_NOT_APPROVED', 'The setup token has not been approved by the payer.'); // prettier-ignore
      setupTokens.delete(setup.id);
      const token: PaypalObject = {
        id: newId(7).toLowerCase(),
        customer: setup.customer,
        payment_source: {
          paypal: { email_address: 'buyer@example.com', payer_id: 'QYR5Z8XDVJNXQ', name: { given_name: 'Ann', surname: 'Buyer' } },
        },
        links: [],
      }; // prettier-ignore
      paymentTokens.set(token.id, token);
      emit('VAULT.PAYMENT-TOKEN.CREATED', 'payment_token', token, 'A payment token was created');
      return token;
    },
    201,
  );
  route('GET', '/v3/vault/payment-tokens', (req) => {
    const customerId = (req.query as Record<string, string>).customer_id;
    const items = [...paymentTokens.values()].filter(
      (t) => (t.customer as { id: string }).id === customerId,
    );
    return {
      customer: { id: customerId },
      payment_tokens: items,
      total_items: items.length,
      total_pages: 1,
      links: [],
    };
  });
  route(
    'DELETE',
    '/v3/vault/payment-tokens/:id',
    (req) => {
      if (!paymentTokens.delete(param(req, 'id'))) throw notFound();
      return '';
    },
    204,
  );

  const signatureOf = (transmissionId: string, time: string, hookId: string, event: unknown) =>
    createHmac('sha256', signingKey)
      .update(`${transmissionId}|${time}|${hookId}|${crc32(JSON.stringify(event))}`)
      .digest('base64');

  route('POST', '/v1/notifications/verify-webhook-signature', (req) => {
    const body = bodyOf(req) as Record<string, string> & { webhook_event?: unknown };
    const expected = signatureOf(
      body.transmission_id ?? '',
      body.transmission_time ?? '',
      body.webhook_id ?? '',
      body.webhook_event,
    );
    const good =
      body.webhook_id === webhookId &&
      body.auth_algo === 'SHA256withRSA' &&
      typeof body.cert_url === 'string' &&
      body.cert_url.startsWith(`${base}/v1/notifications/certs/`) &&
      body.transmission_sig === expected;
    return { verification_status: good ? 'SUCCESS' : 'FAILURE' };
  });

  // The buyer at PayPal: approving an order or saving their account.
  const approve = (order: PaypalObject) => {
    order.status = 'APPROVED';
    order.payer = {
      email_address: 'buyer@example.com',
      payer_id: 'QYR5Z8XDVJNXQ',
      name: { given_name: 'Ann', surname: 'Buyer' },
    };
    emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', order, 'An order has been approved by buyer');
    return order;
  };
  app.post('/_fake/orders/:id/approve', async (req, reply) => {
    const order = orders.get(param(req, 'id'));
    if (!order) return reply.code(404).send({ error: 'no such order' });
    return approve(order);
  });
  /**
   * The approve page the buyer's browser is sent to (`approveUrl`): the order's amount, a
   * button that approves it and sends the buyer to the order's return_url with `token` and
   * `PayerID` (as PayPal does), and a link back to its cancel_url.
   */
  app.get('/checkoutnow', async (req, reply) => {
    const token = (req.query as Record<string, string>).token ?? '';
    const order = orders.get(token);
    if (!order) return reply.code(404).type('text/plain').send('No such order');
    const units = order.purchase_units as { amount: { currency_code: string; value: string } }[];
    const amount = units[0]?.amount;
    const cancel = returns.get(token)?.cancelUrl;
    const html = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    return reply.type('text/html; charset=utf-8').send(
      `<!doctype html><html lang="en"><head><title>PayPal (fake) checkout</title></head><body>
<main><h1>Pay with PayPal (fake)</h1><p>Pay ${html(`${amount?.value ?? ''} ${amount?.currency_code ?? ''}`)}</p>
<form method="post" action="/checkoutnow?token=${encodeURIComponent(token)}"><button type="submit">Approve and pay</button></form>
${cancel ? `<p><a href="${html(cancel)}">Cancel and return</a></p>` : ''}</main></body></html>`,
    );
  });
  app.post('/checkoutnow', async (req, reply) => {
    const token = (req.query as Record<string, string>).token ?? '';
    const order = orders.get(token);
    const back = returns.get(token)?.returnUrl;
    if (!order || !back) return reply.code(404).type('text/plain').send('No such order');
    approve(order);
    const url = new URL(back);
    url.searchParams.set('token', token);
    url.searchParams.set('PayerID', 'QYR5Z8XDVJNXQ');
    return reply.redirect(url.toString(), 303);
  });
  app.post('/_fake/setup-tokens/:id/approve', async (req, reply) => {
    const token = setupTokens.get(param(req, 'id'));
    if (!token) return reply.code(404).send({ error: 'no such setup token' });
    token.status = 'APPROVED';
    return token;
  });

  const webhookDelivery: FakePaypal['webhookDelivery'] = (event, opts = {}) => {
    const transmissionId = randomUUID();
    const time = iso();
    const payload = JSON.stringify(event);
    return {
      rawBody: Buffer.from(payload),
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${base}/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270`,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': signatureOf(
          transmissionId,
          time,
          opts.webhookId ?? webhookId,
          event,
        ),
      },
    };
  };

  base = await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  return {
    url: base,
    clientId,
    clientSecret,
    webhookId,
    captureCount: () => captureCount,
    tokensIssued: () => issued,
    orders,
    events,
    calls,
    get declineCaptures() {
      return state.declineCaptures;
    },
    set declineCaptures(value: boolean) {
      state.declineCaptures = value;
    },
    get tokenLifetimeSeconds() {
      return state.tokenLifetimeSeconds;
    },
    set tokenLifetimeSeconds(value: number) {
      state.tokenLifetimeSeconds = value;
    },
    failNext: (kind, delayMs = 0) => {
      nextFailure = { kind, delayMs };
    },
    revokeTokens: () => tokens.clear(),
    approveUrl: (orderId) => `${base}/checkoutnow?token=${orderId}`,
    webhookDelivery,
    deliver: async (event, url) => {
      const { rawBody, headers } = webhookDelivery(event);
      const response = await fetch(url, { method: 'POST', headers, body: rawBody.toString() });
      return response.status;
    },
    close: () => app.close(),
  };
}
