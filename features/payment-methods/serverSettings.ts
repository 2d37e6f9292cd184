import type { FastifyInstance } from 'fastify';
import { apiCredential as adminCredential, billingSettings } from '../panel-settings/serverApi';

/**
 * The gateways' credentials: the ONE place payment-methods reads them. An admin's on `/admin/api`
 * (features/panel-settings, sealed) come first; else the operator's environment (`STRIPE_*`,
 * `PAYPAL_*`: a panel configured before its first sign-in, and the tests). A gateway an admin
 * switched off on `/admin/module-sittings`, or whose required fields are missing, is not set
 * up: null.
 *
 * Tests give each app its own values with `useGatewayEnvironment` instead of `process.env`, so
 * nothing leaks from one test file to the next.
 */

export type Provider = 'stripe' | 'paypal';
type Env = Readonly<Record<string, string | undefined>>;

/** Keyed by the panel's config object, which its encapsulated plugins share with the root. */
const environments = new WeakMap<object, Env>();

/** This app reads its gateway settings from `env` instead of `process.env` (tests). */
export function useGatewayEnvironment(app: FastifyInstance, env: Env): void {
  environments.set(app.config, env);
}

const envOf = (app: FastifyInstance): Env => environments.get(app.config) ?? process.env;

/** Names of each provider's fields and the variables they come from; `?` marks an optional one. */
const FIELDS: Record<Provider, Record<string, string>> = {
  stripe: {
    secretKey: 'STRIPE_SECRET_KEY',
    publishableKey: 'STRIPE_PUBLISHABLE_KEY',
    webhookSecret: 'STRIPE_WEBHOOK_SECRET',
    'apiBase?': 'STRIPE_API_URL',
  },
  paypal: {
    clientId: 'PAYPAL_CLIENT_ID',
    clientSecret: 'PAYPAL_CLIENT_SECRET',
    webhookId: 'PAYPAL_WEBHOOK_ID',
    'apiBase?': 'PAYPAL_API_URL',
  },
};

/** PayPal's live API unless PAYPAL_API_URL names the sandbox (or a local fake). */
const DEFAULTS: Record<Provider, Record<string, string>> = {
  stripe: {},
  paypal: { apiBase: 'https://api-m.paypal.com' },
};

/** A provider's fields, or null when it is switched off or any required one is not set. */
export async function apiCredential(
  app: FastifyInstance,
  provider: Provider,
): Promise<Record<string, string> | null> {
  if (!(await billingSettings(app)).enabledGateways.includes(provider)) return null;
  const fromAdmin = await adminCredential(app, provider);
  return fromAdmin ? { ...DEFAULTS[provider], ...fromAdmin } : envCredential(app, provider);
}

/** A provider's fields from the environment, or null when a required one is not set. */
export function envCredential(
  app: FastifyInstance,
  provider: Provider,
): Record<string, string> | null {
  const env = envOf(app);
  const fields: Record<string, string> = { ...DEFAULTS[provider] };
  for (const [key, variable] of Object.entries(FIELDS[provider])) {
    const optional = key.endsWith('?');
    const value = env[variable]?.trim();
    if (value) fields[key.replace('?', '')] = value;
    else if (!optional) return null;
  }
  return fields;
}

/** Stripe's own script unless STRIPE_JS_URL names a stand-in (tests, air-gapped machines). */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

export function stripeJsUrl(app: FastifyInstance): string {
  return envOf(app).STRIPE_JS_URL?.trim() || STRIPE_JS_URL;
}
