/**
 * The app's git configuration (GET/POST/PATCH gitdeploy, DELETE gitdeploy/webstacks, gitbranch,
 * gitwebhook): the repository's host key is scanned on configure and pinned in the panel, so
 * every later clone trusts that key alone; the webhook's secret is sealed and shown once.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { addressAllowed, literalAddress } from '../../resources/agent/addressPolicy';
import { readOp, runOp } from '../../server/agents/runOp';
import { now } from '../../server/db/database';
import { HttpError, fieldError } from '../../server/http/errors';
import { type HandlerContext, webappOf } from '../../server/http/handlers';
import { repoParts } from './names';
import type { GitConfig, gitConfigInput, gitConfigPatch, webhookPatch } from './resource';
import type { GitConfigRow } from './serverTables';

export const recordOf = (row: GitConfigRow): GitConfig => ({
  id: row.webapp_id,
  repository: row.repository,
  branch: row.branch,
  script: row.script,
  health_path: row.health_path,
  host_fingerprints: JSON.parse(row.host_fingerprints) as string[],
  webhook_enabled: Boolean(row.webhook_enabled),
  webhook_provider: row.webhook_provider,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const findConfig = (ctx: HandlerContext) =>
  ctx.app.db
    .selectFrom('git_configs')
    .selectAll()
    .where('server_id', '=', ctx.server.id)
    .where('webapp_id', '=', webappOf(ctx).id)
    .executeTakeFirst();

/** The configuration, or 404: the page takes that as "not configured" (spec section 8). */
export async function configOf(ctx: HandlerContext): Promise<GitConfigRow> {
  const row = await findConfig(ctx);
  if (!row) throw new HttpError(404, `Git deployment is not configured for ${webappOf(ctx).name}`);
  return row;
}

/**
 * A repository naming a loopback, private or link-local address (in any spelling git's resolver
 * reads) is refused unless the administrator allows it (OUTBOUND_ALLOW); the agent checks the
 * addresses a name resolves to before each clone.
 */
export function refuseLocalRepository(ctx: HandlerContext, repository: string): void {
  const address = literalAddress(repoParts(repository)!.host);
  if (address && !addressAllowed(ctx.app.config.outboundAllow)(address, address))
    throw fieldError(
      'repository',
      `${address} is a private or local address; the panel administrator can allow it with OUTBOUND_ALLOW`,
    );
}

/** The git server's host keys, scanned by the app's user; the refusal lands at the URL. */
async function scanHostKeys(ctx: HandlerContext, repository: string) {
  const parts = repoParts(repository)!;
  if (parts.transport === 'https') return { lines: [], fingerprints: [] };
  try {
    return await runOp(ctx, `Pin the host key of ${parts.host}`, 'gitdeploy.hostkey', {
      sys_user: webappOf(ctx).sys_user,
      host: parts.host,
      port: parts.port,
      outbound_allow: ctx.app.config.outboundAllow,
    });
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 422)
      throw fieldError('repository', error.message);
    throw error;
  }
}

const newToken = () => randomBytes(24).toString('base64url');
const newSecret = () => randomBytes(32).toString('hex');

export const hookUrl = (ctx: HandlerContext, token: string) =>
  `${ctx.app.config.publicUrl}/api/v1/hooks/git/${token}`;

type Input = z.output<typeof gitConfigInput>;

export async function configure(ctx: HandlerContext<unknown, Input>): Promise<GitConfig> {
  const app = webappOf(ctx);
  if (await findConfig(ctx))
    throw new HttpError(409, `${app.name} is already configured: change it or remove it first`);
  refuseLocalRepository(ctx, ctx.body.repository);
  const keys = await scanHostKeys(ctx, ctx.body.repository);
  const stamp = now();
  const row = await ctx.app.db
    .insertInto('git_configs')
    .values({
      server_id: ctx.server.id,
      webapp_id: app.id,
      repository: ctx.body.repository,
      branch: ctx.body.branch,
      script: ctx.body.script,
      health_path: ctx.body.health_path,
      host_keys: JSON.stringify(keys.lines),
      host_fingerprints: JSON.stringify(keys.fingerprints),
      webhook_enabled: 0,
      webhook_provider: 'github',
      webhook_token: newToken(),
      webhook_secret: ctx.app.services.box.seal(newSecret()),
      created_at: stamp,
      updated_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(row);
}

export async function update(
  ctx: HandlerContext<unknown, z.output<typeof gitConfigPatch>>,
): Promise<GitConfig> {
  const row = await configOf(ctx);
  const { branch, script, health_path } = ctx.body;
  const changed = await ctx.app.db
    .updateTable('git_configs')
    .set({
      ...(branch !== undefined ? { branch } : {}),
      ...(script !== undefined ? { script } : {}),
      ...(health_path !== undefined ? { health_path } : {}),
      updated_at: now(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(changed);
}

/** Forgets the configuration (and with it the webhook); releases and history stay. */
export async function remove(ctx: HandlerContext): Promise<{ id: number }> {
  const row = await configOf(ctx);
  await ctx.app.db.deleteFrom('git_deliveries').where('webapp_id', '=', row.webapp_id).execute();
  await ctx.app.db.deleteFrom('git_configs').where('id', '=', row.id).execute();
  return { id: row.webapp_id };
}

export async function branches(ctx: HandlerContext) {
  const row = await configOf(ctx);
  const app = webappOf(ctx);
  return readOp(ctx, 'gitdeploy.branches', {
    sys_user: app.sys_user,
    app: app.name,
    repository: row.repository,
    known_hosts: JSON.parse(row.host_keys) as string[],
    outbound_allow: ctx.app.config.outboundAllow,
  });
}

export async function webhook(ctx: HandlerContext) {
  const row = await configOf(ctx);
  return {
    enabled: Boolean(row.webhook_enabled),
    provider: row.webhook_provider,
    url: hookUrl(ctx, row.webhook_token),
    secret: null,
  };
}

/** The secret, opened from its seal, for its owner to paste into GitHub or GitLab again. */
export async function webhookSecret(ctx: HandlerContext) {
  const row = await configOf(ctx);
  return { secret: ctx.app.services.box.open(row.webhook_secret) };
}

/** The secret is in this answer when it is new (`regenerate`); `webhookSecret` shows it later. */
export async function setWebhook(ctx: HandlerContext<unknown, z.output<typeof webhookPatch>>) {
  const row = await configOf(ctx);
  const { enabled, provider, regenerate } = ctx.body;
  const secret = regenerate ? newSecret() : null;
  const changed = await ctx.app.db
    .updateTable('git_configs')
    .set({
      ...(enabled !== undefined ? { webhook_enabled: enabled ? 1 : 0 } : {}),
      ...(provider !== undefined ? { webhook_provider: provider } : {}),
      ...(secret
        ? { webhook_secret: ctx.app.services.box.seal(secret), webhook_token: newToken() }
        : {}),
      updated_at: now(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    enabled: Boolean(changed.webhook_enabled),
    provider: changed.webhook_provider,
    url: hookUrl(ctx, changed.webhook_token),
    secret,
  };
}
