import { z } from 'zod';
import { defineResource } from './define';

/** Support tickets (spec 7 "Support"): a thread between a user and the panel's admins. */

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** open: waits for an admin; answered: an admin replied last; closed: done (reopenable). */
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;

/** What may be attached, by MIME type, and the extensions a file of that type may carry. */
export const ATTACHMENT_TYPES = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt', 'log'],
} as const satisfies Record<string, readonly string[]>;
export type AttachmentType = keyof typeof ATTACHMENT_TYPES;
export const ATTACHMENT_MIME_TYPES = Object.keys(ATTACHMENT_TYPES) as [
  AttachmentType,
  ...AttachmentType[],
];
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENTS_PER_MESSAGE = 5;
/** The file picker's `accept`. */
export const ATTACHMENT_ACCEPT = Object.entries(ATTACHMENT_TYPES)
  .flatMap(([type, exts]) => [type, ...exts.map((e) => `.${e}`)])
  .join(',');

/** Bytes a base64 text decodes to (no Buffer here: the browser imports this file too). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * One attached file, sent inside the JSON body as base64 (as profile photos are): the declared
 * body schema then validates attachments like every other field. The server checks the bytes
 * against the type again and never uses `name` in a path.
 */
export const attachmentInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'The file needs a name')
      .max(200, 'File names are at most 200 characters'),
    type: z.enum(ATTACHMENT_MIME_TYPES, {
      message: 'Only PNG, JPEG, GIF, WebP, PDF, TXT and LOG files can be attached',
    }),
    data: z
      .string()
      .max(Math.ceil(ATTACHMENT_MAX_BYTES / 3) * 4 + 4, 'Each file must be at most 5 MB')
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file content must be base64'),
  })
  .refine((file) => base64Bytes(file.data) <= ATTACHMENT_MAX_BYTES, {
    message: 'Each file must be at most 5 MB',
    path: ['data'],
  })
  .refine((file) => base64Bytes(file.data) > 0, { message: 'The file is empty', path: ['data'] })
  .refine(
    (file) => {
      const ext = file.name.toLowerCase().split('.').pop() ?? '';
      return (ATTACHMENT_TYPES[file.type] as readonly string[]).includes(ext);
    },
    { message: 'The file name does not match its type', path: ['name'] },
  );
export type AttachmentInput = z.infer<typeof attachmentInput>;

const attachments = z
  .array(attachmentInput)
  .max(ATTACHMENTS_PER_MESSAGE, `At most ${ATTACHMENTS_PER_MESSAGE} files a message`)
  .default([]);

const message = z
  .string()
  .trim()
  .min(1, 'Write a message')
  .max(20_000, 'A message is at most 20000 characters');

export const newTicketBody = z.object({
  subject: z.string().trim().min(3, 'At least 3 characters').max(200, 'At most 200 characters'),
  /** A server the user may see; optional. */
  server_id: z.coerce.number().int().positive().nullish(),
  priority: z.enum(TICKET_PRIORITIES).default('normal'),
  message,
  attachments,
});
export type NewTicket = z.input<typeof newTicketBody>;

export const replyBody = z.object({ message, attachments });
export type TicketReply = z.input<typeof replyBody>;

export const ticketStatusBody = z.object({
  status: z.enum(['open', 'closed'], { message: 'Close or reopen: open or closed' }),
});

export const ticketSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** The owner's address (admins see who wrote; a user sees their own). */
  email: z.string(),
  subject: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  server_id: z.number().int().nullable(),
  server_name: z.string().nullable(),
  messages: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const attachmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
});

export const ticketMessageSchema = z.object({
  id: z.number().int(),
  /** Written by an admin answering, rather than by the ticket's owner. */
  from_staff: z.boolean(),
  author: z.string(),
  body: z.string(),
  attachments: z.array(attachmentSchema),
  created_at: z.string(),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

export const ticketThreadSchema = ticketSchema.extend({
  thread: z.array(ticketMessageSchema),
});
export type TicketThread = z.infer<typeof ticketThreadSchema>;

/**
 * `GET supportcs/tickets/users/{uid}` lists the user's tickets under `tickets.ticket`. Admins are
 * the support desk: an admin listing at their own id sees every user's tickets (`type=email`
 * with `value=` narrows to one user's address); naming another user's id lists that user's.
 * Admin staff reach Users and Servers only: they see just their own tickets.
 */
export const tickets = defineResource({
  name: 'tickets',
  label: 'Support tickets',
  // A ticket is its user's: the request hook loads `{id}` through `{uid}` (an admin's: any).
  parent: 'account',
  params: { id: 'id' },
  missing: 'No such ticket',
  schema: ticketSchema,
  input: newTicketBody,
  paths: { list: 'supportcs/tickets/users/{uid}', one: 'supportcs/ticket/{id}/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      dataKey: 'tickets.ticket',
      sort: ['updated_at', 'created_at', 'status'],
      filters: z.object({
        status: z.enum(TICKET_STATUSES).optional(),
        type: z.enum(['email']).optional(),
        value: z.string().trim().max(254).optional(),
      }),
      summary: "The user's tickets (an admin at their own id: everyone's), newest activity first",
    },
    get: {
      guard: 'self',
      summary: 'The ticket and its thread, oldest message first',
      response: ticketThreadSchema,
    },
  },
  actions: {
    open: {
      method: 'POST',
      path: 'supportcs/users/{uid}',
      guard: 'self',
      summary: 'Open a ticket: subject, optional server, priority, message, attachments',
      body: newTicketBody,
      // The server it is about: one the user reaches, loaded by the request hook.
      bodyLoads: { server_id: { of: 'servers', missing: 'Pick one of your servers' } },
      bodyLimit: 40 * 1024 * 1024,
      response: ticketThreadSchema,
      status: 201,
    },
    reply: {
      method: 'POST',
      path: 'supportcs/ticket/{id}/users/{uid}',
      guard: 'self',
      summary: 'Reply (the owner, or an admin answering); the other side gets a mail',
      body: replyBody,
      bodyLimit: 40 * 1024 * 1024,
      response: ticketThreadSchema,
      status: 201,
    },
    setStatus: {
      method: 'PUT',
      path: 'supportcs/updateticket/{id}/users/{uid}',
      guard: 'self',
      summary: 'Close (`closed`) or reopen (`open`) the ticket',
      body: ticketStatusBody,
      response: ticketSchema,
    },
  },
  ui: {
    listFields: ['subject', 'status', 'priority', 'updated_at'],
    recordRepresentation: 'subject',
  },
});

/**
 * A file attached to a message of a ticket: downloaded by the ticket's owner and admins, loaded
 * through the `{uid}` account like its ticket.
 */
export const ticketAttachments = defineResource({
  name: 'ticket-attachments',
  label: 'Ticket attachments',
  parent: 'account',
  params: { id: 'id' },
  missing: 'No such attachment',
  schema: z.object({ id: z.number() }),
  paths: {},
  ops: {},
  actions: {
    attachment: {
      method: 'GET',
      path: 'supportcs/attachments/{id}/users/{uid}',
      guard: 'self',
      summary: "An attachment's bytes, as a download: the ticket's owner and admins only",
    },
  },
});
