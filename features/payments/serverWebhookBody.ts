import type { FastifyInstance } from 'fastify';

/**
 * Webhook signatures cover the exact bytes the gateway sent: a body parsed and serialised again
 * no longer matches (research 2.3, fastify/fastify#5491, stripe/stripe-node#341). Called inside
 * the webhook routes' own plugin, JSON bodies there arrive as the raw Buffer for
 * `Gateway.parseWebhook`; the rest of the panel keeps Fastify's JSON parser.
 */
export function keepRawJsonBodies(app: FastifyInstance, bodyLimit = 1024 * 1024): void {
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit },
    (_req, body, done) => done(null, body),
  );
}
