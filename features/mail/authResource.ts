/**
 * The mail-authentication calls of an app (spec s.7 "Mail", issue 25): the DKIM, DMARC, SPF and
 * MX records of the app's mail domains to publish, what DNS answers for them now, and publishing
 * them into Stackdeck DNS when the domain's zone is there. The values are made by dnsValues.ts.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { domainName } from '../webapps/api';

const server = 'servers/{sid}/users/{uid}';

/** One record, in a DNS provider's terms, with its value split for forms that want strings. */
export const mailRecordSchema = z.object({
  kind: z.enum(['dkim', 'spf', 'dmarc', 'mx', 'mail-a', 'mail-aaaa']),
  /** Relative to the domain: `@`, `mail`, `_dmarc`, `mail._domainkey`. */
  name: z.string(),
  fqdn: z.string(),
  type: z.enum(['TXT', 'MX', 'A', 'AAAA']),
  /** The raw value (a TXT's whole text, unquoted). */
  content: z.string(),
  /** A TXT's strings of at most 255 characters; other types: the content alone. */
  content_split: z.array(z.string()),
  /** The split strings quoted on one line, as zone files and some providers want them. */
  content_quoted: z.string(),
  priority: z.number().int().nullable(),
  ttl: z.number().int(),
  why: z.string(),
  /** DMARC only: which of the two offered policies this is. */
  policy: z.enum(['quarantine', 'none']).nullable(),
});
export type MailRecordOut = z.infer<typeof mailRecordSchema>;

export const mailDomainRecords = z.object({
  domain: z.string(),
  records: z.array(mailRecordSchema),
  /** SPF: what DNS had, and what merging ours into it means (else empty). */
  notes: z.array(z.string()),
  /** Whether the domain's zone is in the user's Stackdeck DNS (publish can write it). */
  in_stackdeck_dns: z.boolean(),
});
export const mailRecordsAnswer = z.object({ data: z.array(mailDomainRecords) });
export type MailRecordsAnswer = z.infer<typeof mailRecordsAnswer>;

/** `?domain=`: one of the app's mail domains; none: all of them. */
export const mailDomainQuery = z.object({ domain: domainName.optional() });

export const mailCheckRecord = z.object({
  kind: z.enum(['dkim', 'spf', 'dmarc', 'mx', 'mail-a', 'mail-aaaa', 'ptr']),
  name: z.string(),
  type: z.enum(['TXT', 'MX', 'A', 'AAAA', 'PTR']),
  status: z.enum(['ok', 'missing', 'different', 'error', 'warning', 'unchecked']),
  found: z.array(z.string()),
  message: z.string(),
});
export const mailCheckAnswer = z.object({
  data: z.array(
    z.object({ domain: z.string(), ok: z.boolean(), records: z.array(mailCheckRecord) }),
  ),
});
export type MailCheckAnswer = z.infer<typeof mailCheckAnswer>;

export const mailPublishInput = z.object({
  domain: domainName,
  dmarc_policy: z.enum(['quarantine', 'none']).default('quarantine'),
});

const written = z.object({
  type: z.string(),
  name: z.string(),
  content: z.string(),
  priority: z.number().int().nullable(),
});
export const mailPublishAnswer = z.object({
  domain: z.string(),
  zone: z.string(),
  created: z.array(written),
  updated: z.array(written.extend({ from: z.string() })),
  removed: z.array(z.object({ type: z.string(), fqdn: z.string(), content: z.string() })),
  notes: z.array(z.string()),
  /** Nothing was written: the zone held our values already. */
  up_to_date: z.boolean(),
});
export type MailPublishAnswer = z.infer<typeof mailPublishAnswer>;

const values = (name: string, what: string) =>
  ({
    method: 'GET',
    path: `${name}/webstack/{appId}/${server}`,
    guard: 'self',
    query: mailDomainQuery,
    response: mailRecordsAnswer,
    summary: `The ${what} of the app's mail domains (\`?domain=\` one of them), raw and split for copying`,
  }) as const;

export const mailAuth = defineResource({
  name: 'mail-auth',
  label: 'Email authentication',
  parent: 'app',
  schema: mailRecordsAnswer,
  paths: {},
  ops: {},
  actions: {
    dkim: values('dkim-display', 'DKIM record'),
    dmarc: values('dmarc', 'DMARC records (quarantine, or none with reports)'),
    spf: values('generate-spf', 'SPF record, merged into the one DNS answers now,'),
    mx: values('mx', 'MX record and the A/AAAA of mail.<domain>'),
    check: {
      method: 'GET',
      path: `mail-dns-check/webstack/{appId}/${server}`,
      guard: 'self',
      query: mailDomainQuery,
      response: mailCheckAnswer,
      summary:
        "What DNS answers for the app's mail domains against the records to publish: ok, missing or different, in words",
    },
    publish: {
      method: 'POST',
      path: `mail-dns-publish/webstack/{appId}/${server}`,
      guard: 'self',
      body: mailPublishInput,
      response: mailPublishAnswer,
      summary:
        "Write a mail domain's DKIM, SPF (merged), DMARC, MX and mail A/AAAA into its zone in Stackdeck DNS (409 when the zone is elsewhere)",
    },
  },
});
