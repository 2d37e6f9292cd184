import type { FastifyInstance } from 'fastify';
import { apiCredential } from './serverSettings';

/** What Stripe.js is given in the browser (not a secret), or null when cards are not set up. */
export async function stripePublishableKey(app: FastifyInstance): Promise<string | null> {
  return (await apiCredential(app, 'stripe'))?.publishableKey ?? null;
}
