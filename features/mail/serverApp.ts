/**
 * The mail of a web app leaves its server with the app (its `app.deleting` event): its
 * forwarders and catch-alls, its mailboxes (their mail moved aside, as a single delete without
 * "also delete its mail" does), then its mail domains. Offline, they wait (`deleting`) for the
 * sweeper.
 */
import type { HandlerContext } from '../../server/http/handlers';
import { converge } from '../../server/managed/converge';
import { ManagedStore } from '../../server/managed/store';
import { forwarderKind } from './serverForwarderKind';
import type { ForwarderRow } from './serverForwardersTable';
import { addressOf, mailboxKind } from './serverKind';
import type { MailboxRow } from './serverTables';

/** Who the activity log names: the admin acting, or a team member, never the owner twice. */
export const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

export async function removeAppMail(
  ctx: HandlerContext,
  app: { id: number; name: string },
): Promise<void> {
  let waiting = false;
  const forwarders = new ManagedStore<ForwarderRow>(ctx.app.db, 'mail_forwarders');
  for (const forwarder of await forwarders.all(ctx.server.id, { webapp_id: app.id })) {
    const marked = await forwarders.change(forwarder, {}, 'deleting');
    const result = await converge(ctx.app, ctx.server, forwarderKind, marked, 'remove', {
      message: `Delete ${forwarderKind.noun(marked)} (of web app ${app.name})`,
      actorId: actorOf(ctx),
    });
    if (result.state === 'failed') throw result.error;
    if (result.state === 'waiting') waiting = true;
  }
  const store = new ManagedStore<MailboxRow>(ctx.app.db, 'mail_users');
  for (const mailbox of await store.all(ctx.server.id, { webapp_id: app.id })) {
    const marked = await store.change(mailbox, { delete_mail: 0 }, 'deleting');
    const result = await converge(ctx.app, ctx.server, mailboxKind, marked, 'remove', {
      message: `Delete mailbox ${addressOf(mailbox)} (of web app ${app.name})`,
      actorId: actorOf(ctx),
    });
    if (result.state === 'failed') throw result.error;
    if (result.state === 'waiting') waiting = true;
  }
  const domains = await ctx.app.db
    .selectFrom('mail_domains')
    .select(['id', 'domain'])
    .where('webapp_id', '=', app.id)
    .where('server_id', '=', ctx.server.id)
    .execute();
  // Offline: the domains' rows go with the app's row; the server keeps their empty maps.
  if (waiting || !domains.length || !(await ctx.app.agents.isOnline(ctx.server.id))) return;
  for (const { id, domain } of domains) {
    await ctx.app.agents.call(ctx.server.id, 'mail.domain.remove', { domain, delete_mail: false });
    await ctx.app.db.deleteFrom('mail_domains').where('id', '=', id).execute();
  }
}
