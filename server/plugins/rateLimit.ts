import rateLimit from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
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

/** Calls that check a secret (password or code): their failures are what is counted. */
const CHECKS_SECRET = new Set([LOGIN_ROUTE, RESET_ROUTE, '/api/v1/users/confirm']);
/** The ceiling on an account's failures from all addresses together, as a multiple of the limit. */
export const ACCOUNT_CEILING_FACTOR = 10;
const WINDOW_MS = 60_000;
/** Counters kept at most (about 100 bytes each); expired ones go first. */
const COUNTERS_KEPT = 100_000;

/**
 * Failures per key in fixed one-minute windows, in memory like @fastify/rate-limit's own store.
 * A call takes a slot before it runs and gives it back when it succeeds, so parallel guesses
 * cannot pass the limit unseen while a success costs nothing.
 */
export class FailureCounter {
  private readonly counts = new Map<string, { n: number; until: number }>();

  /** The slot's window end when the key is under `max`, else the seconds to wait. */
  take(key: string, max: number, at: number): { ok: true } | { ok: false; ttl: number } {
    let entry = this.counts.get(key);
    if (!entry || entry.until <= at) {
      entry = { n: 0, until: at + WINDOW_MS };
      this.prune(at);
      this.counts.set(key, entry);
    }
    if (entry.n >= max)
      return { ok: false, ttl: Math.max(1, Math.ceil((entry.until - at) / 1000)) };
    entry.n += 1;
    return { ok: true };
  }

  giveBack(key: string) {
    const entry = this.counts.get(key);
    if (entry && entry.n > 0) entry.n -= 1;
  }

  private prune(at: number) {
    if (this.counts.size < COUNTERS_KEPT) return;
    for (const [key, entry] of this.counts) if (entry.until <= at) this.counts.delete(key);
    while (this.counts.size >= COUNTERS_KEPT) {
      this.counts.delete(this.counts.keys().next().value as string);
    }
  }
}

interface Taken {
  keys: string[];
}
declare module 'fastify' {
  interface FastifyRequest {
    /** The failure slots a secret-checking call took, given back when it succeeds. */
    failureSlots?: Taken;
  }
}

/**
 * Sign-in, OTP, confirm and reset calls are limited per client: AUTH_RATE_LIMIT a minute, per
 * route. The client is `req.ip`, which honours X-Forwarded-For only behind a trusted proxy
 * (TRUST_PROXY).
 *
 * Per account, calls that check a secret (sign-in, confirm, reset) count failures only:
 * AUTH_RATE_LIMIT a minute per account and client address, and ten times that from all
 * addresses together. A success is never counted, so an attacker's failures slow the attacker
 * without refusing the owner's right password from another address. Calls that send mail
 * (register, resend, forgot password, OTP mail) keep a plain per-account limit, so no one
 * floods a mailbox from many addresses. Any counter over its limit answers 429.
 */
export default fp(async function rateLimitPlugin(app: FastifyInstance) {
  await app.register(rateLimit, { global: false });
  const max = app.config.authRateLimit;
  const perClient = app.createRateLimit({
    max,
    timeWindow: WINDOW_MS,
    keyGenerator: (req) => `client:${routeOf(req)}:${req.ip}`,
  });
  const perAccount = app.createRateLimit({
    max,
    timeWindow: WINDOW_MS,
    keyGenerator: async (req) => `account:${routeOf(req)}:${await resolvedAccountKey(app, req)}`,
  });
  const failures = new FailureCounter();

  const refuse = async (req: FastifyRequest, reply: FastifyReply, ttl: number) => {
    if (req.routeOptions.url === LOGIN_ROUTE) await recordLimitedLogin(app, req);
    reply.header('retry-after', ttl);
    return new HttpError(429, `Too many attempts, try again in ${ttl} seconds`);
  };

  const limit: preHandlerAsyncHookHandler = async (req, reply) => {
    const client = await perClient(req);
    if (!client.isAllowed && client.isExceeded) throw await refuse(req, reply, client.ttlInSeconds);
    if (!CHECKS_SECRET.has(req.routeOptions.url ?? '')) {
      const account = await perAccount(req);
      if (!account.isAllowed && account.isExceeded)
        throw await refuse(req, reply, account.ttlInSeconds);
      return;
    }
    const account = `failures:${routeOf(req)}:${await resolvedAccountKey(app, req)}`;
    const pair = `${account}:${req.ip}`;
    const at = Date.now();
    const byPair = failures.take(pair, max, at);
    if (!byPair.ok) throw await refuse(req, reply, byPair.ttl);
    const byAccount = failures.take(account, max * ACCOUNT_CEILING_FACTOR, at);
    if (!byAccount.ok) {
      failures.giveBack(pair);
      throw await refuse(req, reply, byAccount.ttl);
    }
    req.failureSlots = { keys: [pair, account] };
  };

  // A call that did not fail (a sign-in, a valid code, even a refusal for a disabled account
  // after the right password) gives its slots back: only failures count.
  const settle: onResponseAsyncHookHandler = async (req, reply) => {
    const taken = req.failureSlots;
    if (!taken) return;
    req.failureSlots = undefined;
    if (reply.statusCode === 400 || reply.statusCode === 401) return;
    for (const key of taken.keys) failures.giveBack(key);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.rateLimited) return;
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [limit, ...existing];
    const after = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [...after, settle];
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
