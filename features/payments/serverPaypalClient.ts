import { GatewayError } from './gateway';

/**
 * A small client of PayPal's REST API with a configurable base URL (PayPal's server SDK
 * hard-codes its hosts, so it cannot be pointed at a local fake: research 2.4). OAuth2 client
 * credentials, the token cached until shortly before it expires and fetched again once when
 * PayPal answers 401; JSON in and out; `PayPal-Request-Id` for idempotent calls; a timeout.
 */

export const PAYPAL_LIVE_URL = 'https://api-m.paypal.com';
export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com';

export interface PaypalClientConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
}

/** PayPal's error body (`{name, message, details:[{issue, description}]}`) and status. */
export class PaypalApiError extends Error {
  override name = 'PaypalApiError';
  constructor(
    readonly status: number,
    readonly errorName: string,
    readonly issue: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

interface ErrorBody {
  name?: string;
  message?: string;
  error_description?: string;
  details?: { issue?: string; description?: string }[];
}

/** Seconds before a token's end at which a new one is fetched. */
const TOKEN_MARGIN_SECONDS = 60;

export interface PaypalClient {
  request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    opts?: { body?: unknown; requestId?: string },
  ): Promise<T>;
}

export function createPaypalClient(config: PaypalClientConfig): PaypalClient {
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 30_000;
  let cached: { token: string; until: number } | undefined;
  let pending: Promise<string> | undefined;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError')
        throw new GatewayError(
          'PayPal did not answer in time. Trying again is safe: the same attempt is never charged twice.',
          'gateway_timeout',
          true,
        );
      throw new GatewayError(
        'PayPal could not be reached. Try again in a few minutes.',
        'gateway_error',
        true,
      );
    }
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const response = await send(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (response.status === 401)
      throw new GatewayError(
        'PayPal refused the client id and secret in the settings.',
        'gateway_error',
      );
    if (!response.ok)
      throw new GatewayError(
        `PayPal's sign-in failed (${response.status}).`,
        'gateway_error',
        response.status >= 500,
      );
    const body = (await response.json()) as { access_token: string; expires_in: number };
    cached = {
      token: body.access_token,
      until: Date.now() + Math.max(0, body.expires_in - TOKEN_MARGIN_SECONDS) * 1000,
    };
    return body.access_token;
  }

  /** One token for all callers; a single fetch when several need a new one at once. */
  function token(): Promise<string> {
    if (cached && cached.until > Date.now()) return Promise.resolve(cached.token);
    pending ??= fetchToken().finally(() => (pending = undefined));
    return pending;
  }

  async function request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    opts: { body?: unknown; requestId?: string } = {},
    retried = false,
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${await token()}`,
      Accept: 'application/json',
      Prefer: 'return=representation',
    };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.requestId) headers['PayPal-Request-Id'] = opts.requestId;
    const response = await send(`${base}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    if (response.status === 401 && !retried) {
      // The token ended early (revoked, or the clocks differ): one new token, one more try.
      cached = undefined;
      return request<T>(method, path, opts, true);
    }
    const text = await response.text();
    if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
    let body: ErrorBody = {};
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      // Not JSON (a proxy's page): the status alone speaks.
    }
    const detail = body.details?.[0];
    throw new PaypalApiError(
      response.status,
      body.name ?? `HTTP_${response.status}`,
      detail?.issue,
      detail?.description ?? body.message ?? body.error_description ?? `HTTP ${response.status}`,
    );
  }

  return { request: (method, path, opts) => request(method, path, opts) };
}
