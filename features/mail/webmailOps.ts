/**
 * The webmail's agent ops (issue 25, spec "Mailbox sidebar"): the agent opens IMAP and SMTP on
 * 127.0.0.1 as Dovecot's master user for the one mailbox the panel names, so the panel stores
 * no mailbox password (research mail.md s.6). Which mailbox a panel user may open is the
 * panel's check; the agent only refuses what is not a mailbox of this server.
 */
import { z } from 'zod';
import { op } from '../../resources/agent/opDef';
import { mailAddress } from './ops';

/** The folders of the spec's mailbox sidebar, by their special use (RFC 6154). */
export const SPECIAL_FOLDERS = ['inbox', 'drafts', 'sent', 'spam', 'trash', 'archive'] as const;
export type SpecialFolder = (typeof SPECIAL_FOLDERS)[number];

/** A folder: one of the special ones, or a path the user made (no `..`, no leading `/`). */
export const folderName = z.union([
  z.enum(SPECIAL_FOLDERS),
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\p{L}\p{N} ._-]+(\/[\p{L}\p{N} ._-]+)*$/u, 'A folder name')
    .refine((f) => !f.split('/').some((p) => p === '.' || p === '..'), 'A folder name'),
]);

const mailbox = z.object({ address: mailAddress });
const inFolder = mailbox.extend({ folder: folderName });
const uids = z.array(z.number().int().positive()).min(1).max(1000);

export const PAGE_SIZES = [25, 50, 100] as const;

const person = z.object({ name: z.string(), address: z.string() });

export const messageSummary = z.object({
  uid: z.number().int(),
  subject: z.string(),
  from: z.array(person),
  to: z.array(person),
  /** ISO time. */
  date: z.string().nullable(),
  size: z.number().int(),
  seen: z.boolean(),
  flagged: z.boolean(),
  answered: z.boolean(),
  has_attachments: z.boolean(),
});
export type MessageSummary = z.infer<typeof messageSummary>;

export const attachmentInfo = z.object({
  /** The MIME part (`2`, `1.2`): what mail.imap.attachment takes. */
  part: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});

const outgoingAttachment = z.object({
  filename: z
    .string()
    .min(1)
    .max(200)
    .refine((f) => !/[\r\n\0/\\]/.test(f), 'A file name'),
  content_type: z.string().regex(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i, 'A MIME type'),
  /** Base64 of the content (the whole message stays under Postfix's 50 MB limit). */
  content: z.string().max(35_000_000),
});

const recipients = z.array(mailAddress).max(100);
const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\r\n\0]/.test(s), 'One line');

export const outgoingMessage = z.object({
  to: recipients,
  cc: recipients.default([]),
  bcc: recipients.default([]),
  subject: oneLine(998),
  text: z.string().max(5_000_000),
  /** The Message-ID this answers (reply), kept in In-Reply-To and References. */
  in_reply_to: oneLine(998).nullable().default(null),
  references: z.array(oneLine(998)).max(100).default([]),
  attachments: z.array(outgoingAttachment).max(20).default([]),
});
export type OutgoingMessage = z.output<typeof outgoingMessage>;

export const webmailOps = {
  /** The mailbox's folders with their counts (and quota use). */
  'mail.imap.folders': op(
    mailbox,
    z.object({
      folders: z.array(
        z.object({
          path: z.string(),
          name: z.string(),
          special: z.enum(SPECIAL_FOLDERS).nullable(),
          messages: z.number().int(),
          unseen: z.number().int(),
        }),
      ),
      quota: z.object({ used_kib: z.number().int(), limit_kib: z.number().int() }).nullable(),
    }),
  ),
  /** A page of a folder, newest first; `search` looks in the sender, subject and text. */
  'mail.imap.list': op(
    inFolder.extend({
      page: z.number().int().min(1).max(100_000),
      per_page: z.union([z.literal(25), z.literal(50), z.literal(100)]),
      search: oneLine(200).nullable(),
    }),
    z.object({ total: z.number().int(), messages: z.array(messageSummary) }),
  ),
  /** One message, marked seen: its text, its HTML as sent (the panel sanitizes it), attachments. */
  'mail.imap.message': op(
    inFolder.extend({ uid: z.number().int().positive() }),
    messageSummary.extend({
      cc: z.array(person),
      reply_to: z.array(person),
      message_id: z.string().nullable(),
      references: z.array(z.string()),
      text: z.string(),
      html: z.string().nullable(),
      attachments: z.array(attachmentInfo),
    }),
  ),
  /** One attachment's content, base64 (at most 35 MB). */
  'mail.imap.attachment': op(
    inFolder.extend({ uid: z.number().int().positive(), part: z.string().regex(/^\d+(\.\d+)*$/) }),
    z.object({ filename: z.string(), content_type: z.string(), content: z.string() }),
  ),
  'mail.imap.move': op(
    inFolder.extend({ uids, to: folderName }),
    z.object({ moved: z.number().int() }),
  ),
  'mail.imap.flag': op(
    inFolder.extend({
      uids,
      seen: z.boolean().optional(),
      flagged: z.boolean().optional(),
    }),
    z.object({ changed: z.number().int() }),
  ),
  /** To the trash; in the trash (or spam), for good. */
  'mail.imap.delete': op(inFolder.extend({ uids }), z.object({ deleted: z.number().int() })),
  /** Saves a draft (replacing `replaces`, the draft it was before). */
  'mail.imap.draft': op(
    mailbox.extend({
      message: outgoingMessage,
      replaces: z.number().int().positive().nullable().default(null),
    }),
    z.object({ uid: z.number().int().nullable() }),
  ),
  /**
   * Sends through the server's submission port as the mailbox (Postfix's sender checks and
   * DKIM apply as to any client), then files a copy in Sent; `draft` is removed once sent.
   */
  'mail.smtp.send': op(
    mailbox.extend({
      message: outgoingMessage,
      draft: z.number().int().positive().nullable().default(null),
    }),
    z.object({ message_id: z.string(), accepted: z.array(z.string()) }),
    120_000,
  ),
};
