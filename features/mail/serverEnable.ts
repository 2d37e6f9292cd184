/**
 * Mail per server: its state, the preflight (host name, PTR, port 25 outbound), and enabling it
 * (Postfix, Dovecot, OpenDKIM by the agent). A smarthost's password is sealed with the install's
 * key and opened only for the op; it never leaves the panel in an answer.
 */
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { HttpError, fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import type { MailState, enableInput, preflightSchema } from './resource';
import type { MailServersTable } from './serverTables';

type Checks = z.infer<typeof preflightSchema>;

export async function mailRow(db: Db, serverId: number): Promise<MailServersTable | undefined> {
  return db
    .selectFrom('mail_servers')
    .selectAll()
    .where('server_id', '=', serverId)
    .executeTakeFirst();
}

export async function mailEnabled(db: Db, serverId: number): Promise<boolean> {
  return Boolean((await mailRow(db, serverId))?.enabled);
}

export function stateOf(row: MailServersTable | undefined): MailState {
  return {
    enabled: Boolean(row?.enabled),
    hostname: row?.hostname ?? null,
    smarthost:
      row?.smarthost_host && row.smarthost_username
        ? {
            host: row.smarthost_host,
            port: row.smarthost_port ?? 587,
            username: row.smarthost_username,
          }
        : null,
    checks: row?.checks ? (JSON.parse(row.checks) as Checks) : null,
    enabled_at: row?.enabled_at ?? null,
  };
}

async function save(db: Db, serverId: number, values: Partial<MailServersTable>) {
  const updated_at = new Date().toISOString();
  const had = await mailRow(db, serverId);
  if (had)
    await db
      .updateTable('mail_servers')
      .set({ ...values, updated_at })
      .where('server_id', '=', serverId)
      .execute();
  else
    await db
      .insertInto('mail_servers')
      .values({ enabled: 0, ...values, server_id: serverId, updated_at })
      .execute();
}

const hostnameOf = (ctx: HandlerContext) => ctx.server.hostname ?? '';

/** Runs the preflight on the server and keeps its findings (the page shows them). */
export async function preflight(ctx: HandlerContext): Promise<Checks> {
  if (!(await ctx.app.agents.isOnline(ctx.server.id)))
    throw new HttpError(409, 'The server is offline: its agent is not connected');
  const checks = await ctx.app.agents.call(ctx.server.id, 'mail.preflight', {
    hostname: hostnameOf(ctx),
  });
  await save(ctx.app.db, ctx.server.id, { checks: JSON.stringify(checks) });
  return checks;
}

/**
 * Preflight, then enable. Port 25 closed outbound without a smarthost is refused at the
 * smarthost field (mail would queue forever); a host name or PTR that fails is shown, not
 * blocking: local delivery works, and the page says what to fix for other servers to accept.
 */
export async function enable(
  ctx: HandlerContext,
  body: z.output<typeof enableInput>,
): Promise<MailState> {
  const checks = await preflight(ctx);
  const relay = body.smarthost;
  if (!checks.port25.ok && !relay)
    throw fieldError(
      'smarthost',
      `${checks.port25.message} Give a smarthost (your provider's relay) to send through.`,
    );
  const sealed = relay ? ctx.app.services.box.seal(relay.password) : null;
  const hostname = hostnameOf(ctx);
  // The password goes to the op as given, and is kept only sealed.
  await ctx.app.agents.call(ctx.server.id, 'mail.enable', { hostname, smarthost: relay });
  await save(ctx.app.db, ctx.server.id, {
    enabled: 1,
    hostname,
    smarthost_host: relay?.host ?? null,
    smarthost_port: relay?.port ?? null,
    smarthost_username: relay?.username ?? null,
    smarthost_password: sealed,
    enabled_at: new Date().toISOString(),
  });
  return stateOf(await mailRow(ctx.app.db, ctx.server.id));
}
