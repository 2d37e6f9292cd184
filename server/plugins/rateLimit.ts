import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http/errors';

/** The account a sign-in, OTP or reset call is about, as the request names it. */
export function accountKey(req: FastifyRequest): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const query = (req.query ?? {}) as Record<string, unknown>;
  const params = (req.params ?? {}) as Record<string, unknown>;
  const named = body.email ?? query.em ?? body.uuid ?? query.uuid ?? body.id ?? params.uid;
  return typeof named === 'string' || typeof named === 'number'
    ? String(named).trim().toLowerCase()
    : 'none';
}

/** One budget per route: `POST users` (register) and `GET users` (forgot) are two routes. */
const routeOf = (req: FastifyRequest) => `${req.method} ${req.routeOptions.url}`;

const RESET_ROUTE = '/api/v1/users/password';
const LOGIN_ROUTE = '/api/v1/users/login';

/**
 * The account key, resolved where the request names the account only indirectly: a password
 * reset names its request id, and every request id of one account must share one budget.
 */
async function resolvedAccountKey(app: FastifyInstance, req: FastifyRequest): Promise<string> {
  const key = accountKey(req);
  if (req.routeOptions.url !== RESET_ROUTE) return key;
  const row = await app.db
    .selectFrom('one_time_codes')
    .select('user_id')
    .where('id', '=', key)
    .executeTakeFirst();
  return row?.user_id ? `user:${row.user_id}` : `request:${key}`;
}

/**
 * Sign-in, OTP, confirm and reset calls are limited per client and per account (AUTH_RATE_LIMIT
 * a minute each, per route). The client is `req.ip`, which honours X-Forwarded-For only behind
 * a trusted proxy (TRUST_PROXY). Both counters are checked on every call; either one over its
 * limit answers 429.
 */
export default fp(async function rateLimitPlugin(app: FastifyInstance) {
  await app.register(rateLimit, { global: false });
  const max = app.config.authRateLimit;
  const limiters = [
    app.createRateLimit({
      max,
      timeWindow: 60_000,
      keyGenerator: (req) => `client:${routeOf(req)}:${req.ip}`,
    }),
    app.createRateLimit({
      max,
      timeWindow: 60_000,
      keyGenerator: async (req) => `account:${routeOf(req)}:${await resolvedAccountKey(app, req)}`,
    }),
  ];

  const limit: preHandlerAsyncHookHandler = async (req, reply) => {
    for (const limiter of limiters) {
      const result = await limiter(req);
      if (result.isAllowed || !result.isExceeded) continue;
      if (req.routeOptions.url === LOGIN_ROUTE) await recordLimitedLogin(app, req);
      reply.header('retry-after', result.ttlInSeconds);
      throw new HttpError(429, `Too many attempts, try again in ${result.ttlInSeconds} seconds`);
    }
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.rateLimited) return;
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [limit, ...existing];
  });
});

/** A refused sign-in still shows in the account's login activity. */
async function recordLimitedLogin(app: FastifyInstance, req: FastifyRequest) {
  const email = accountKey(req);
  const user = await app.services.users.findByEmail(email);
  await app.services.logs.authAttempt({
    userId: user?.id ?? null,
    email,
    outcome: 'rate_limited',
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512),
  });
}
