/**
 * Mail of web apps (spec s.7 "Mail", issue 25): mail per server (enabled once, after a
 * preflight), and the mailboxes of an app's domains. The panel keeps the desired mailboxes and a
 * password only as an argon2id hash until the server has it, as FTP does; the agent ops and the
 * values they carry are in ops.ts.
 */
import { z } from 'zod';
import { defineResource, listQuery, listResponse } from '../../resources/define';
import { managedState } from '../../resources/managedState';
import { domainName } from '../webapps/api';
import { mailAddress, mailLocalPart, mailQuotaMb } from './ops';

import { mailAuth } from './authResource';
import { ops as mailOps } from './ops';
import { webmailOps } from './webmailOps';
import { resources as accountResources } from './autorespondersResource';
import { resources as forwarderResources } from './forwardersResource';
import { resources as webmailResources } from './webmailResource';

/** Mail's agent ops: the server's mail (ops.ts) and the webmail's (webmailOps.ts). */
export const ops = { ...mailOps, ...webmailOps };

/** A mailbox password, hashed by the panel before anything leaves it: long enough, one line. */
export const mailPassword = z
  .string()
  .min(12, 'At least 12 characters')
  .max(128, 'At most 128 characters')
  .refine((p) => !/[\r\n\0]/.test(p), 'One line, no line breaks');

export const mailboxSchema = z.object({
  id: z.number().int(),
  /** `local@domain`. */
  address: z.string(),
  local: z.string(),
  domain: z.string(),
  quota_mb: z.number().int(),
  /** Where its mail is forwarded (none: kept here only). */
  forward_to: z.array(z.string()),
  /** With forwards: the mailbox keeps a copy. */
  keep_copy: z.boolean(),
  ...managedState,
});
export type Mailbox = z.infer<typeof mailboxSchema>;

export const mailboxInput = z.object({
  local: mailLocalPart,
  /** One of the app's domains. */
  domain: domainName,
  password: mailPassword,
  quota_mb: mailQuotaMb.default(1024),
});

/** PATCH: a new password (empty keeps it), a new quota, or both. */
export const mailboxChange = z.object({
  password: z.union([z.literal(''), mailPassword]).optional(),
  quota_mb: mailQuotaMb.optional(),
});

/** The whole forwarding of a mailbox: no targets stops forwarding. */
export const forwardInput = z.object({
  targets: z.array(mailAddress).max(50, 'At most 50 addresses'),
  keep_copy: z.boolean().default(true),
});

const wsid = z.object({ wsid: z.coerce.number().int().positive() });
const server = 'servers/{sid}/users/{uid}';

export const mailUser = defineResource({
  name: 'mail-user',
  label: 'Mailboxes',
  parent: 'app',
  params: { mid: 'id' },
  idParam: 'mid',
  missing: 'No such mailbox',
  schema: mailboxSchema,
  input: mailboxInput,
  paths: { list: `mail-user/${server}`, one: `mail-user/{mid}/${server}` },
  ops: {
    create: {
      guard: 'self',
      query: wsid,
      summary:
        'Add a mailbox on one of the app (`?wsid=`) domains; its first makes the mail domain',
    },
    update: {
      guard: 'self',
      method: 'PATCH',
      query: wsid,
      body: mailboxChange,
      summary: 'Change the password (when given) and/or the quota',
    },
    delete: {
      guard: 'self',
      query: wsid.extend({ delete_mail: z.enum(['true', 'false']).optional() }),
      summary: 'Remove the mailbox; `?delete_mail=true` also deletes its mail (else kept 30 days)',
    },
  },
  actions: {
    list: {
      method: 'GET',
      path: `mail-user/webstack/{appId}/${server}`,
      guard: 'self',
      query: listQuery.extend({
        domain: domainName.optional(),
        sync: z.enum(['true', 'false']).optional(),
      }),
      response: listResponse(mailboxSchema),
      summary:
        "The mailboxes of the app's domains, paged; `?sync=true` compares them with the server's",
    },
    forward: {
      method: 'POST',
      path: `email-forwarding/mail-user/{mid}/${server}`,
      guard: 'self',
      query: wsid,
      body: forwardInput,
      response: mailboxSchema,
      summary: "Where the mailbox's mail goes besides it (no loops); no targets stops forwarding",
    },
  },
  example: { local: 'info', domain: 'shop.example.com', password: 'a long mail password' },
  ui: {
    listFields: ['address', 'quota_mb', 'status'],
    formFields: ['local', 'domain', 'password', 'quota_mb'],
    widgets: { password: { kind: 'password', length: 20 } },
    labels: { local: 'Name', domain: 'Domain', password: 'Password', quota_mb: 'Quota (MB)' },
    help: {
      local: 'The part before the @: letters, digits and . _ + -',
      password: 'Shown once: the panel keeps only a hash',
      quota_mb: '0: no limit',
    },
    recordRepresentation: 'address',
  },
});

/** The relay mail goes out through where port 25 is closed; its password is sealed. */
export const smarthostInput = z.object({
  host: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]{1,253}$/, 'A host name such as smtp.example.com'),
  port: z.coerce.number().int().min(1).max(65535).default(587),
  username: z.string().trim().min(1, 'Required').max(200),
  password: z.string().min(1, 'Required').max(200),
});

export const mailCheck = z.object({ ok: z.boolean(), message: z.string() });
export const preflightSchema = z.object({
  hostname: mailCheck,
  ptr: mailCheck,
  port25: mailCheck,
});

export const mailStateSchema = z.object({
  enabled: z.boolean(),
  hostname: z.string().nullable(),
  /** The relay, without its password (never answered). */
  smarthost: z
    .object({ host: z.string(), port: z.number().int(), username: z.string() })
    .nullable(),
  /** The last preflight's findings. */
  checks: preflightSchema.nullable(),
  enabled_at: z.string().nullable(),
});
export type MailState = z.infer<typeof mailStateSchema>;

export const enableInput = z.object({ smarthost: smarthostInput.nullable().default(null) });

/** Mail on a server: its state, the preflight, and enabling it. */
export const mailServer = defineResource({
  name: 'mail',
  label: 'Mail',
  parent: 'server',
  schema: mailStateSchema,
  paths: {},
  ops: {},
  actions: {
    state: {
      method: 'GET',
      path: `mail/${server}`,
      guard: 'self',
      response: mailStateSchema,
      summary: 'Whether mail is enabled on the server, its host name, relay and last preflight',
    },
    preflight: {
      method: 'POST',
      path: `mail-preflight/${server}`,
      guard: 'self',
      response: preflightSchema,
      summary: 'What enabling mail would meet: the host name, its PTR, port 25 outbound',
    },
    enable: {
      method: 'POST',
      path: `mail/${server}`,
      guard: 'self',
      body: enableInput,
      response: mailStateSchema,
      summary:
        'Enable mail (preflight first; port 25 closed needs a smarthost); installs Postfix, Dovecot, OpenDKIM',
    },
  },
});

export const resources = {
  'mail-user': mailUser,
  mail: mailServer,
  'mail-auth': mailAuth,
  ...accountResources,
  ...forwarderResources,
  ...webmailResources,
};
