/**
 * The webmail's calls (spec s.2 "Mailbox sidebar", issue 25): a mailbox of the account, opened
 * on its server by the agent as Dovecot's master user (research mail.md s.6). The spec names no
 * call for it; these sit beside the autoresponder's, under the mailbox. Reading mail is the
 * mailbox owner's alone: a team member who manages the server, an admin, or an admin acting for
 * the user is refused (the privacy concern of hestiacp#523); every open is in the account's
 * activity log.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import {
  PAGE_SIZES,
  SPECIAL_FOLDERS,
  attachmentInfo,
  folderName,
  messageSummary,
  outgoingMessage,
} from './webmailOps';

const uid = z.coerce.number().int().positive();
const uids = z.array(z.number().int().positive()).min(1, 'Pick a message').max(1000);

export const folderSchema = z.object({
  path: z.string(),
  name: z.string(),
  special: z.enum(SPECIAL_FOLDERS).nullable(),
  messages: z.number().int(),
  unseen: z.number().int(),
});
export type MailFolder = z.infer<typeof folderSchema>;

export const foldersResponse = z.object({
  /** The mailbox as the panel knows it. */
  address: z.string(),
  folders: z.array(folderSchema),
  quota: z.object({ used_kib: z.number().int(), limit_kib: z.number().int() }).nullable(),
});
export type MailFolders = z.infer<typeof foldersResponse>;

export const listQuery = z.object({
  folder: folderName.default('inbox'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce
    .number()
    .refine(
      (n): n is (typeof PAGE_SIZES)[number] => (PAGE_SIZES as readonly number[]).includes(n),
      {
        message: `One of ${PAGE_SIZES.join(', ')}`,
      },
    )
    .default(25),
  search: z
    .string()
    .trim()
    .max(200, 'At most 200 characters')
    .refine((s) => !/[\r\n\0]/.test(s), 'One line')
    .optional(),
});

export const listResponse = z.object({
  total: z.number().int(),
  messages: z.array(messageSummary),
});
export type MessageList = z.infer<typeof listResponse>;

const person = z.object({ name: z.string(), address: z.string() });

export const messageResponse = messageSummary.extend({
  cc: z.array(person),
  reply_to: z.array(person),
  message_id: z.string().nullable(),
  references: z.array(z.string()),
  text: z.string(),
  /** The HTML as sent: the browser sanitizes it and shows it without remote content. */
  html: z.string().nullable(),
  attachments: z.array(attachmentInfo),
});
export type MailMessage = z.infer<typeof messageResponse>;

const inFolder = z.object({ folder: folderName });

/** What compose sends: the agent's message, and the draft it was (removed once sent). */
export const sendBody = z.object({
  message: outgoingMessage,
  draft: z.number().int().positive().nullable().default(null),
});
export const draftBody = z.object({
  message: outgoingMessage,
  replaces: z.number().int().positive().nullable().default(null),
});

const path = (what: string) => `webmail/mail-user/{mid}/${what}/servers/{sid}/users/{uid}`;

/** Mail is for its owner alone: no team member, no admin, acting or not. */
const reader = {
  guard: 'self',
  forbidWhileActing: true,
  ownerOnly: 'read its mail',
} as const;

/** Bodies of up to 20 attachments of 35 MB at most, in base64 (the message stays under 50 MB). */
const MESSAGE_LIMIT = 52 * 1024 * 1024;

export const mailWebmail = defineResource({
  name: 'mail-webmail',
  label: 'Webmail',
  parent: 'server',
  params: { mid: 'id' },
  idParam: 'mid',
  missing: 'No such mailbox',
  schema: messageSummary,
  paths: {},
  ops: {},
  actions: {
    folders: {
      method: 'GET',
      path: path('folders'),
      ...reader,
      response: foldersResponse,
      summary: "The mailbox's folders with their counts and its quota (an open, logged)",
    },
    list: {
      method: 'GET',
      path: path('messages'),
      ...reader,
      query: listQuery,
      response: listResponse,
      summary: 'A page of a folder, newest first; search looks in the sender, subject and text',
    },
    message: {
      method: 'GET',
      path: path('message'),
      ...reader,
      query: inFolder.extend({ uid }),
      response: messageResponse,
      changesState: true,
      summary: 'One message, marked seen',
    },
    attachment: {
      method: 'GET',
      path: path('attachment'),
      ...reader,
      query: inFolder.extend({
        uid,
        part: z.string().regex(/^\d+(\.\d+)*$/, 'A MIME part such as 2 or 1.2'),
      }),
      summary: 'One attachment, as a download (never shown inline)',
    },
    image: {
      method: 'GET',
      path: path('image'),
      ...reader,
      query: inFolder.extend({
        uid,
        url: z
          .string()
          .max(4096, 'At most 4,096 characters')
          .regex(/^https?:\/\/\S+$/i, 'An http or https address'),
      }),
      summary:
        'A remote image of the message, fetched by the panel when its reader asks (never a private or local address)',
    },
    move: {
      method: 'POST',
      path: path('move'),
      ...reader,
      body: inFolder.extend({ uids, to: folderName }),
      response: z.object({ moved: z.number().int() }),
      summary: 'Move messages to another folder',
    },
    flag: {
      method: 'POST',
      path: path('flag'),
      ...reader,
      body: inFolder.extend({
        uids,
        seen: z.boolean().optional(),
        flagged: z.boolean().optional(),
      }),
      response: z.object({ changed: z.number().int() }),
      summary: 'Mark messages read or unread, flagged or not',
    },
    delete: {
      method: 'POST',
      path: path('delete'),
      ...reader,
      body: inFolder.extend({ uids }),
      response: z.object({ deleted: z.number().int() }),
      summary: 'Messages to the trash; in the trash or spam, deleted for good',
    },
    draft: {
      method: 'POST',
      path: path('draft'),
      ...reader,
      body: draftBody,
      bodyLimit: MESSAGE_LIMIT,
      response: z.object({ uid: z.number().int().nullable() }),
      summary: 'Save a draft (replacing the one it was)',
    },
    send: {
      method: 'POST',
      path: path('send'),
      ...reader,
      body: sendBody,
      bodyLimit: MESSAGE_LIMIT,
      response: z.object({ message_id: z.string(), accepted: z.array(z.string()) }),
      summary: "Send as the mailbox through its server's submission port; a copy goes to Sent",
    },
  },
});

export const resources = { 'mail-webmail': mailWebmail };
