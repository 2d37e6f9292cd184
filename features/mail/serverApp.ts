/**
 * The mail of a web app leaves its server with the app (its `app.deleting` event): its mailboxes
 * (their mail moved aside, as a single delete without "also delete its mail" does), then its
 * mail domains. Offline, the mailboxes wait (`deleting`) for the sweeper.
 */
import type { HandlerContext } from '../../server/http/handlers';
import { converge } from '../../server/managed/converge';
import { ManagedStore } from '../../server/managed/store';
import { addressOf, mailboxKind } from './serverKind';
import type { MailboxRow } from './serverTables';

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

export async function removeAppMail(
  ctx: HandlerContext,
  app: { id: number; name: string },
): Promise<void> {
  const store = new ManagedStore<MailboxRow>(ctx.app.db, 'mail_users');
  let waiting = false;
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
