import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../server/http/errors';
import { createPaypalGateway, createStripeGateway, type Gateway } from '../payments/serverApi';
import { apiCredential, type Provider } from './serverSettings';

/** What a route says when the panel has no keys for a gateway. */
export const NOT_SET_UP: Record<Provider, string> = {
  stripe: 'Card payments are not set up on this panel: an administrator adds the Stripe keys first',
  paypal:
    'PayPal payments are not set up on this panel: an administrator adds the PayPal keys first',
};

export interface ReadyGateway {
  gateway: Gateway;
  credential: Record<string, string>;
}

/** One client per app and credential: the SDK's and PayPal's token caches live in it. */
const built = new WeakMap<object, Map<string, Gateway>>();

/** Where PayPal sends the buyer back after approving (or cancelling) a payment. */
export const paypalReturnUrl = (app: FastifyInstance) =>
  `${app.config.publicUrl}/api/v1/paypal/return`;

function build(app: FastifyInstance, provider: Provider, c: Record<string, string>): Gateway {
  if (provider === 'stripe') {
    const base = c.apiBase ? new URL(c.apiBase) : null;
    return createStripeGateway({
      secretKey: c.secretKey!,
      webhookSecret: c.webhookSecret!,
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port) || (base.protocol === 'http:' ? 80 : 443),
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
  }
  return createPaypalGateway({
    baseUrl: c.apiBase!,
    clientId: c.clientId!,
    clientSecret: c.clientSecret!,
    webhookId: c.webhookId!,
    returnUrl: paypalReturnUrl(app),
    cancelUrl: `${paypalReturnUrl(app)}?cancel=1`,
  });
}

/** The gateway and its credential, or null when the panel has no keys for it. */
export async function gatewayIfSet(
  app: FastifyInstance,
  provider: Provider,
): Promise<ReadyGateway | null> {
  const credential = await apiCredential(app, provider);
  if (!credential) return null;
  const key = `${provider}:${JSON.stringify(credential)}`;
  let cache = built.get(app.config);
  if (!cache) built.set(app.config, (cache = new Map()));
  let gateway = cache.get(key);
  if (!gateway) cache.set(key, (gateway = build(app, provider, credential)));
  return { gateway, credential };
}

/** The gateway, or the 409 that says it is not set up. */
export async function gatewayOf(app: FastifyInstance, provider: Provider): Promise<ReadyGateway> {
  const ready = await gatewayIfSet(app, provider);
  if (!ready) throw new HttpError(409, NOT_SET_UP[provider]);
  return ready;
}
