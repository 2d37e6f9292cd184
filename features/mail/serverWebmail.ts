/**
 * The webmail's calls: the panel checks that the caller owns the mailbox, then asks its server's
 * agent, which opens IMAP or SMTP as Dovecot's master user for that mailbox only. The browser
 * never speaks IMAP, and the panel stores no mailbox password.
 */
import { recordActivity } from '../../server/handlers/activity';
import { HttpError, forbidden } from '../../server/http/errors';
import { type HandlerContext, defineHandlers, loadedChild } from '../../server/http/handlers';
import { remoteImagesOf } from './remoteImages';
import { allowedImages } from './serverImageAllowlist';
import { addressOf } from './serverKind';
import { fetchRemoteImage } from './serverRemoteImage';
import type { MailboxRow } from './serverTables';
import { mailWebmail } from './webmailResource';

declare module '../../server/http/children' {
  interface FeatureChildRows {
    'mail-webmail': MailboxRow;
  }
}

/**
 * The mailbox, for its owner on a server that can answer. The guard already refused admins
 * and team members (forbidWhileActing, ownerOnly); this holds it on the row too.
 */
async function opened(ctx: HandlerContext<unknown, unknown, MailboxRow | undefined>) {
  const row = loadedChild(ctx.child);
  if (!ctx.caller || ctx.caller.actorId !== null || ctx.caller.id !== ctx.server.user_id)
    throw forbidden("Only the mailbox's owner can read its mail");
  if (row.status !== 'active')
    throw new HttpError(
      409,
      `The mailbox is ${row.status === 'deleting' ? 'being removed' : 'not ready yet'}`,
    );
  if (!(await ctx.app.agents.isOnline(ctx.server.id)))
    throw new HttpError(409, 'The server is offline: its agent is not connected');
  return { row, address: addressOf(row) };
}

/** One line a sitting: the page asks for the folders again every 30 seconds while it is open. */
const SITTING_MS = 30 * 60_000;

async function noteOpened(ctx: HandlerContext<unknown, unknown>, address: string): Promise<void> {
  const message = `Opened the mailbox ${address} in the webmail`;
  const recent = await ctx.app.db
    .selectFrom('account_activity')
    .select('id')
    .where('user_id', '=', ctx.uid)
    .where('message', '=', message)
    .where('created_at', '>=', new Date(Date.now() - SITTING_MS).toISOString())
    .executeTakeFirst();
  if (!recent) await recordActivity(ctx, message);
}

/** A header value's file name: the browser saves it under this name, never opens it inline. */
function disposition(filename: string): string {
  const plain = filename.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'attachment';
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export const webmailHandlers = defineHandlers(mailWebmail, {
  actions: {
    async folders(ctx) {
      const { address } = await opened(ctx);
      const got = await ctx.app.agents.call(ctx.server.id, 'mail.imap.folders', { address });
      await noteOpened(ctx, address);
      return { address, ...got };
    },
    async list(ctx) {
      const { address } = await opened(ctx);
      const { folder, page, per_page, search } = ctx.query;
      return ctx.app.agents.call(ctx.server.id, 'mail.imap.list', {
        address,
        folder,
        page,
        per_page: per_page as 25 | 50 | 100,
        search: search ? search : null,
      });
    },
    async message(ctx) {
      const { address } = await opened(ctx);
      return ctx.app.agents.call(ctx.server.id, 'mail.imap.message', {
        address,
        folder: ctx.query.folder,
        uid: ctx.query.uid,
      });
    },
    async attachment(ctx) {
      const { address } = await opened(ctx);
      const got = await ctx.app.agents.call(ctx.server.id, 'mail.imap.attachment', {
        address,
        folder: ctx.query.folder,
        uid: ctx.query.uid,
        part: ctx.query.part,
      });
      // Always a download of opaque bytes: an attached HTML page never runs in the panel's origin.
      ctx.reply.header('content-type', 'application/octet-stream');
      ctx.reply.header('content-disposition', disposition(got.filename));
      ctx.reply.header('x-content-type-options', 'nosniff');
      ctx.reply.header('cache-control', 'no-store');
      return ctx.reply.send(Buffer.from(got.content, 'base64'));
    },
    async image(ctx) {
      const { row, address } = await opened(ctx);
      const { folder, uid, url } = ctx.query;
      const allowed = await allowedImages(
        ctx.app,
        { serverId: ctx.server.id, mailboxId: row.id, userId: ctx.uid, folder, uid },
        async () => {
          const message = await ctx.app.agents.call(ctx.server.id, 'mail.imap.message', {
            address,
            folder,
            uid,
          });
          return remoteImagesOf(message.html);
        },
      );
      // Only an image of this message: the proxy fetches nothing else.
      if (!allowed.has(url)) throw new HttpError(404, 'The message has no such image');
      const image = await fetchRemoteImage(ctx.app.services.outbound, url);
      ctx.reply.header('content-type', image.type);
      ctx.reply.header('x-content-type-options', 'nosniff');
      ctx.reply.header('cache-control', 'private, max-age=3600');
      return ctx.reply.send(image.bytes);
    },
    async move(ctx) {
      const { address } = await opened(ctx);
      return ctx.app.agents.call(ctx.server.id, 'mail.imap.move', { address, ...ctx.body });
    },
    async flag(ctx) {
      const { address } = await opened(ctx);
      return ctx.app.agents.call(ctx.server.id, 'mail.imap.flag', { address, ...ctx.body });
    },
    async delete(ctx) {
      const { address } = await opened(ctx);
      return ctx.app.agents.call(ctx.server.id, 'mail.imap.delete', { address, ...ctx.body });
    },
    async draft(ctx) {
      const { address } = await opened(ctx);
      return ctx.app.agents.call(ctx.server.id, 'mail.imap.draft', { address, ...ctx.body });
    },
    async send(ctx) {
      const { address } = await opened(ctx);
      const sent = await ctx.app.agents.call(ctx.server.id, 'mail.smtp.send', {
        address,
        ...ctx.body,
      });
      const to = [...ctx.body.message.to, ...ctx.body.message.cc, ...ctx.body.message.bcc];
      await recordActivity(ctx, `Sent a message from ${address} to ${to.length} recipient(s)`);
      return sent;
    },
  },
});
