/**
 * The public webhook (POST /api/v1/hooks/git/{token}): GitHub's HMAC-SHA256 of the raw body in
 * X-Hub-Signature-256, or GitLab's X-Gitlab-Token, checked in constant time against the app's
 * sealed secret; a delivery is handled once (serverReplay.ts); only a push to the configured branch deploys. A
 * push during a running deploy is accepted (202) and queues one deploy after it: later pushes
 * join that one, which deploys the branch's head when it starts.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import type { GitConfigRow } from './serverTables';
import { DeployRunning, deployTarget, queueDeploy, startDeploy } from './serverDeploy';
import { deliveryKeys, firstSight, forget } from './serverReplay';

type Answer = { result: string; deploy_id: number | null };

const header = (ctx: HandlerContext, name: string) => {
  const value = ctx.req.headers[name];
  return typeof value === 'string' ? value : null;
};

/** Equal strings in constant time, whatever their lengths (compared as SHA-256 digests). */
const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** Whether the call proves the secret; the event and delivery id it names. */
export function verify(
  provider: GitConfigRow['webhook_provider'],
  secret: string,
  headers: (name: string) => string | null,
  raw: Buffer,
): { event: string | null; delivery: string | null; signed: string } | null {
  if (provider === 'github') {
    const signature = headers('x-hub-signature-256');
    const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    if (!signature || !sameSecret(signature, expected)) return null;
    return {
      event: headers('x-github-event'),
      delivery: headers('x-github-delivery'),
      signed: signature,
    };
  }
  const token = headers('x-gitlab-token');
  if (!token || !sameSecret(token, secret)) return null;
  return {
    event: headers('x-gitlab-event'),
    delivery: headers('x-gitlab-event-uuid'),
    signed: token,
  };
}

/** The branch a push names (`refs/heads/<branch>`); null for tags and branch deletions. */
export function pushedBranch(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const { ref, deleted, after } = body as { ref?: unknown; deleted?: unknown; after?: unknown };
  if (deleted === true || after === '0000000000000000000000000000000000000000') return null;
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/')) return null;
  return ref.slice('refs/heads/'.length);
}

const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

export async function receive(ctx: HandlerContext): Promise<Answer> {
  const token = String(ctx.params.token ?? '');
  const { db, services } = ctx.app;
  const config = TOKEN.test(token)
    ? await db
        .selectFrom('git_configs')
        .selectAll()
        .where('webhook_token', '=', token)
        .executeTakeFirst()
    : undefined;
  // An unknown or disabled hook looks the same as a missing route.
  if (!config || !config.webhook_enabled) throw new HttpError(404, 'Not found');
  const proof = verify(
    config.webhook_provider,
    services.box.open(config.webhook_secret),
    (name) => header(ctx, name),
    ctx.req.rawBody ?? Buffer.alloc(0),
  );
  if (!proof) throw new HttpError(401, 'The signature or token does not match');
  ctx.reply.code(200);
  if (proof.event === 'ping') return { result: 'pong', deploy_id: null };
  if (proof.event !== 'push' && proof.event !== 'Push Hook')
    return { result: `ignored: ${proof.event ?? 'no'} event`, deploy_id: null };
  // A replay with a new or no delivery id is known by its signature and body.
  const keys = deliveryKeys(proof.signed, ctx.req.rawBody ?? Buffer.alloc(0), proof.delivery);
  if (!(await firstSight(ctx.app, config.webapp_id, keys)))
    return { result: 'duplicate delivery: already handled', deploy_id: null };
  const branch = pushedBranch(ctx.body);
  if (branch !== config.branch)
    return {
      result: `ignored: not a push to ${config.branch}${branch ? ` (pushed ${branch})` : ''}`,
      deploy_id: null,
    };
  const { webapp, server } = await deployTarget(ctx.app, config);
  try {
    const started = await startDeploy(ctx.app, server, webapp, config, 'webhook');
    ctx.reply.code(202);
    return { result: 'deploying', deploy_id: started.id };
  } catch (error) {
    if (error instanceof DeployRunning) {
      const { fresh, started } = await queueDeploy(ctx.app, config);
      ctx.reply.code(202);
      if (started !== null) return { result: 'deploying', deploy_id: started };
      return {
        result: fresh
          ? 'queued: deploys the branch when the running deploy ends'
          : 'queued: joins the deploy already waiting',
        deploy_id: null,
      };
    }
    // Not deployed (the server offline): the provider's redelivery may try again.
    await forget(ctx.app, config.webapp_id, keys);
    throw error;
  }
}
