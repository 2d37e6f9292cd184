/**
 * The account-wide email pages (spec s.2 "Email sidebar", issue 25): a mailbox's autoresponder
 * (kept by the panel, sent to its server as `mail.vacation.set`), every mailbox of the account
 * across servers and apps, and the mail domains' disk use asked live of their servers.
 */
import { z } from 'zod';
import { defineResource, listQuery, listResponse } from '../../resources/define';

/** A real calendar day as YYYY-MM-DD (2026-02-30 is refused, not rolled over). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a real date');

export const autoresponderInput = z
  .object({
    subject: z
      .string()
      .trim()
      .min(1, 'Required')
      .max(200, 'At most 200 characters')
      .refine((s) => !/[\r\n\0]/.test(s), 'One line, no line breaks'),
    body: z.string().trim().min(1, 'Required').max(10_000, 'At most 10000 characters'),
    /** The first day it answers (none: from now). */
    starts: day.nullable().default(null),
    /** The last day it answers, inclusive (none: until removed). */
    ends: day.nullable().default(null),
    /** Days before the same sender is answered again. */
    days: z.coerce.number().int().min(1, 'At least 1').max(30, 'At most 30').default(7),
  })
  .superRefine((v, ctx) => {
    // Dates compare as text in this form; the field is told, not the form as a whole.
    if (v.starts && v.ends && v.ends < v.starts)
      ctx.addIssue({ code: 'custom', path: ['ends'], message: 'Not before the start date' });
  });

export const autoresponderValues = z.object({
  subject: z.string(),
  body: z.string(),
  starts: z.string().nullable(),
  ends: z.string().nullable(),
  days: z.number().int(),
  updated_at: z.string(),
});

/** A mailbox of the account as the email pages list it, with its autoresponder (or none). */
export const accountMailboxSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  domain: z.string(),
  quota_mb: z.number().int(),
  status: z.string(),
  server_id: z.number().int(),
  server_name: z.string(),
  webapp_id: z.number().int(),
  webapp_name: z.string(),
  autoresponder: autoresponderValues.nullable(),
});
export type AccountMailbox = z.infer<typeof accountMailboxSchema>;

export const domainUsageSchema = z.object({
  domain: z.string(),
  server_id: z.number().int(),
  server_name: z.string(),
  /** Why the server gave no answer (offline, an error); the mailboxes then have no bytes. */
  error: z.string().nullable(),
  mailboxes: z.array(
    z.object({
      address: z.string(),
      bytes: z.number().int().nullable(),
      quota_mb: z.number().int(),
    }),
  ),
  total_bytes: z.number().int().nullable(),
});
export type DomainUsage = z.infer<typeof domainUsageSchema>;

const path = 'autoresponder/mail-user/{mid}/servers/{sid}/users/{uid}';

/** A mailbox's autoresponder, under the mailbox (loaded through its server). */
export const mailAutoresponder = defineResource({
  name: 'mail-autoresponder',
  label: 'Autoresponders',
  parent: 'server',
  params: { mid: 'id' },
  idParam: 'mid',
  missing: 'No such mailbox',
  schema: accountMailboxSchema,
  paths: {},
  ops: {},
  actions: {
    get: {
      method: 'GET',
      path,
      guard: 'self',
      response: accountMailboxSchema,
      summary: 'The mailbox with its autoresponder (null: none)',
    },
    set: {
      method: 'PUT',
      path,
      guard: 'self',
      body: autoresponderInput,
      response: accountMailboxSchema,
      summary: 'Set or change the autoresponder; the server must be online',
    },
    remove: {
      method: 'DELETE',
      path,
      guard: 'self',
      response: accountMailboxSchema,
      summary: 'Stop the autoresponder; the server must be online',
    },
  },
});

/** The account's mailboxes and their mail domains' disk use, across its servers. */
export const mailAccount = defineResource({
  name: 'mail-account',
  label: 'Email accounts',
  parent: 'account',
  schema: accountMailboxSchema,
  paths: {},
  ops: {},
  actions: {
    list: {
      method: 'GET',
      path: 'mail-users/users/{uid}',
      guard: 'self',
      query: listQuery,
      response: listResponse(accountMailboxSchema),
      summary: 'Every mailbox of the account across its servers and apps, paged',
    },
    usage: {
      method: 'GET',
      path: 'email-disk-usage/users/{uid}',
      guard: 'self',
      response: z.array(domainUsageSchema),
      summary: "Each mail domain's mailboxes' disk use, asked live of their servers",
    },
  },
});

export const resources = { 'mail-autoresponder': mailAutoresponder, 'mail-account': mailAccount };
