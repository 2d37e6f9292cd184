import { ticketAttachments, tickets, type Ticket } from '../../resources/tickets';
import { recordActivity } from '../../server/handlers/activity';
import type { Caller } from '../../server/http/caller';
import { contentDisposition } from '../../server/http/contentDisposition';
import { HttpError, badRequest, fieldError, notFound } from '../../server/http/errors';
import { type HandlerContext, defineHandlers, loadedChild } from '../../server/http/handlers';
import type { Mail } from '../../server/mail/mailer';
import { decodeAttachments } from './serverAttachments';

const noTicket = () => notFound('No such ticket');

/** An admin writing on someone else's ticket answers for support; anyone else writes as the owner. */
const answersForSupport = (caller: Caller, ticket: Pick<Ticket, 'user_id'>) =>
  caller.isAdmin && caller.id !== ticket.user_id;

function filesOf(list: Parameters<typeof decodeAttachments>[0]) {
  const decoded = decodeAttachments(list);
  if (typeof decoded === 'string') throw fieldError('attachments', decoded);
  return decoded;
}

async function threadOf(ctx: HandlerContext<unknown, unknown>, ticketId: number) {
  const { tickets: repo } = ctx.app.services;
  const ticket = await repo.find(ticketId);
  if (!ticket) throw noTicket();
  return { ...ticket, thread: await repo.thread(ticketId) };
}

const link = (ctx: HandlerContext<unknown, unknown>, id: number) =>
  `${ctx.app.config.publicUrl}/ticket-response/${id}`;

/** Every admin's address but the writer's: the support desk hears of new tickets and replies. */
async function mailAdmins(ctx: HandlerContext<unknown, unknown>, mail: Omit<Mail, 'to'>) {
  const admins = await ctx.app.services.tickets.adminEmails(ctx.caller!.actorId ?? ctx.caller!.id);
  for (const to of admins) await ctx.app.services.mailer.send({ ...mail, to });
}

export const ticketHandlers = defineHandlers(tickets, {
  async list(ctx) {
    const caller = ctx.caller!;
    const { status, type, value } = ctx.query;
    const desk = caller.isAdmin && caller.id === ctx.uid;
    const scope = desk
      ? { all: true as const, email: type === 'email' && value ? value : undefined }
      : { userId: ctx.uid };
    return ctx.app.services.tickets.list(scope, ctx.query, { status }, tickets.ops.list.sort);
  },

  // The ticket of an item route (`ctx.child`) was loaded through `{uid}` by the request hook.
  async get(ctx) {
    return threadOf(ctx, ctx.child.id);
  },

  actions: {
    async open(ctx) {
      const { tickets: repo } = ctx.app.services;
      const body = ctx.body;
      const serverId = ctx.loaded.server_id?.id ?? null;
      const files = filesOf(body.attachments);
      const caller = ctx.caller!;
      const id = await repo.open(
        ctx.uid,
        { subject: body.subject, priority: body.priority, server_id: serverId },
        { authorId: caller.actorId ?? caller.id, fromStaff: false, body: body.message },
        files,
      );
      await recordActivity(ctx, `Support ticket #${id} opened`);
      await mailAdmins(ctx, {
        subject: `[Ticket #${id}] New ticket: ${body.subject}`,
        text: `A new support ticket (${body.priority} priority) was opened by ${caller.email}.\n\n${body.message}\n\nAnswer it at ${link(ctx, id)}\n`,
      });
      return threadOf(ctx, id);
    },

    async reply(ctx) {
      const ticket = loadedChild(ctx.child);
      if (ticket.status === 'closed') {
        throw new HttpError(409, 'This ticket is closed: reopen it to reply');
      }
      const caller = ctx.caller!;
      const fromStaff = answersForSupport(caller, ticket);
      const files = filesOf(ctx.body.attachments);
      await ctx.app.services.tickets.reply(
        ticket.id,
        { authorId: caller.actorId ?? caller.id, fromStaff, body: ctx.body.message },
        files,
      );
      const mail = {
        subject: `[Ticket #${ticket.id}] ${ticket.subject}`,
        text: fromStaff
          ? `Support answered your ticket "${ticket.subject}":\n\n${ctx.body.message}\n\nRead and reply at ${link(ctx, ticket.id)}\n`
          : `${ticket.email} replied on ticket #${ticket.id} "${ticket.subject}":\n\n${ctx.body.message}\n\nAnswer it at ${link(ctx, ticket.id)}\n`,
      };
      if (fromStaff) await ctx.app.services.mailer.send({ ...mail, to: ticket.email });
      else await mailAdmins(ctx, mail);
      return threadOf(ctx, ticket.id);
    },

    async setStatus(ctx) {
      const ticket = loadedChild(ctx.child);
      const wanted = ctx.body.status;
      if (wanted === 'closed' && ticket.status === 'closed') {
        throw badRequest('This ticket is already closed');
      }
      if (wanted === 'open' && ticket.status !== 'closed') {
        throw badRequest('This ticket is not closed');
      }
      await ctx.app.services.tickets.setStatus(ticket.id, wanted);
      await recordActivity(
        ctx,
        `Support ticket #${ticket.id} ${wanted === 'closed' ? 'closed' : 'reopened'}`,
        ticket.user_id,
      );
      return (await ctx.app.services.tickets.find(ticket.id))!;
    },
  },
});

export const ticketAttachmentHandlers = defineHandlers(ticketAttachments, {
  actions: {
    async attachment(ctx) {
      const { tickets: repo } = ctx.app.services;
      // Loaded through `{uid}` and its ticket by the request hook.
      const file = loadedChild(ctx.child);
      const bytes = await repo.files.read(file.stored_name).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          ctx.req.log.warn({ attachment: file.id }, 'ticket attachment missing on disk');
          throw notFound('This file is no longer available');
        }
        throw error;
      });
      // The stored type, never sniffed; downloaded, never rendered in the panel's origin.
      ctx.reply
        .header(
          'content-type',
          file.mime === 'text/plain' ? 'text/plain; charset=utf-8' : file.mime,
        )
        .header('content-disposition', contentDisposition(file.file_name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store');
      return bytes;
    },
  },
});
