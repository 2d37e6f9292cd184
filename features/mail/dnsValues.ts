/**
 * The mail-authentication DNS records of a mail domain (issue 25; research mail.md §4): DKIM,
 * SPF, DMARC and MX, as the email-authentication page shows them and as Stackdeck's DNS
 * publishes them. Pure: loaded by the panel and the browser alike (only zod, no node:*).
 */
import { z } from 'zod';
import { type SpfMerge, mergeSpf } from './dnsSpf';

export { type SpfMerge, mergeSpf, spfLookups, isSpf, SPF_LOOKUP_LIMIT } from './dnsSpf';

/** The DKIM selector of every mail domain (as Hestia and docker-mailserver use). */
export const DKIM_SELECTOR = 'mail';
export const MAIL_TTL = 3600;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const host = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}\.?$/, 'A name like example.com')
  .transform((h) => h.replace(/\.$/, ''));

/** What the values are made from: the domain, its DKIM key, the server's addresses and name. */
export const mailDnsInput = z.object({
  domain: host,
  /** The public key as OpenDKIM's `p=`: base64 of the SPKI DER (research §4). */
  dkimPublicKey: z
    .string()
    .transform((k) => k.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^[A-Za-z0-9+/]{40,}={0,2}$/, 'A base64 public key')),
  ipv4: z.string().regex(IPV4, 'An IPv4 address like 203.0.113.10'),
  ipv6: z.ipv6('An IPv6 address like 2001:db8::1').optional(),
  /** The server's own host name, which the PTR of its address should name. */
  mailHost: host,
  /** `quarantine` (default) or the gentle start `none` with reports to dmarc@<domain>. */
  dmarcPolicy: z.enum(['quarantine', 'none']).default('quarantine'),
});
export type MailDnsInput = z.input<typeof mailDnsInput>;

export type MailRecordKind = 'dkim' | 'spf' | 'dmarc' | 'mx' | 'mail-a' | 'mail-aaaa';

/** One record to publish, in the terms a DNS provider's form uses. */
export interface MailDnsRecord {
  kind: MailRecordKind;
  /** Relative to the domain's zone: `@`, `mail`, `_dmarc`, `mail._domainkey`. */
  name: string;
  /** Absolute, without the trailing dot. */
  fqdn: string;
  type: 'TXT' | 'MX' | 'A' | 'AAAA';
  /** The raw value: a TXT's whole text (unsplit, unquoted), an MX's target host with its dot. */
  content: string;
  /** MX only. */
  priority?: number;
  ttl: number;
  /** One line for the page: what the record is for. */
  why: string;
}

export interface MailDnsValues {
  domain: string;
  mailHost: string;
  ipv4: string;
  ipv6?: string;
  dkim: MailDnsRecord;
  spf: MailDnsRecord;
  /** The chosen policy (input `dmarcPolicy`). */
  dmarc: MailDnsRecord;
  /** Both DMARC choices, the page offers them side by side. */
  dmarcOptions: { quarantine: MailDnsRecord; none: MailDnsRecord };
  /** MX `@` -> mail.<d>., then `mail.<d>` A (and AAAA when the server has IPv6). */
  mx: MailDnsRecord[];
}

export function dkimValue(publicKey: string): string {
  return `v=DKIM1; h=sha256; k=rsa; p=${publicKey.replace(/\s+/g, '')}`;
}

export function spfValue(ipv4: string, ipv6?: string): string {
  return ['v=spf1', 'mx', 'a', `ip4:${ipv4}`, ...(ipv6 ? [`ip6:${ipv6}`] : []), '-all'].join(' ');
}

export function dmarcValue(domain: string, policy: 'quarantine' | 'none'): string {
  return policy === 'none'
    ? `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`
    : 'v=DMARC1; p=quarantine; adkim=r; aspf=r';
}

/**
 * A TXT value as the strings of at most 255 characters DNS carries (a 2048-bit DKIM `p=` is
 * ~400): for providers that want them apart. PowerDNS's API splits by itself.
 */
export function splitTxt(value: string, max = 255): string[] {
  return value.match(new RegExp(`[\\s\\S]{1,${max}}`, 'g')) ?? [''];
}

/** The split strings quoted, one line: `"v=DKIM1; … p=MIIB…" "…rest"`, `"` and `\` escaped. */
export function quotedTxt(value: string): string {
  return splitTxt(value)
    .map((c) => `"${c.replace(/["\\]/g, (m) => `\\${m}`)}"`)
    .join(' ');
}

/** A zone-file line to paste: `mail._domainkey.example.com. 3600 IN TXT "…" "…"`. */
export function zoneLine(r: MailDnsRecord): string {
  const data =
    r.type === 'TXT'
      ? quotedTxt(r.content)
      : r.type === 'MX'
        ? `${r.priority} ${r.content}`
        : r.content;
  return `${r.fqdn}. ${r.ttl} IN ${r.type} ${data}`;
}

/** The records of one mail domain. Throws a ZodError on input the schema refuses. */
export function mailDnsValues(raw: MailDnsInput): MailDnsValues {
  const input = mailDnsInput.parse(raw);
  const d = input.domain;
  const rec = (
    kind: MailRecordKind,
    name: string,
    type: MailDnsRecord['type'],
    content: string,
    why: string,
    priority?: number,
  ): MailDnsRecord => ({
    kind,
    name,
    fqdn: name === '@' ? d : `${name}.${d}`,
    type,
    content,
    ...(priority === undefined ? {} : { priority }),
    ttl: MAIL_TTL,
    why,
  });
  const dmarcOptions = {
    quarantine: rec(
      'dmarc',
      '_dmarc',
      'TXT',
      dmarcValue(d, 'quarantine'),
      'DMARC: receivers put mail that fails both SPF and DKIM in spam.',
    ),
    none: rec(
      'dmarc',
      '_dmarc',
      'TXT',
      dmarcValue(d, 'none'),
      `DMARC, a gentle start: nothing is blocked, and daily reports go to dmarc@${d}.`,
    ),
  };
  return {
    domain: d,
    mailHost: input.mailHost,
    ipv4: input.ipv4,
    ...(input.ipv6 ? { ipv6: input.ipv6 } : {}),
    dkim: rec(
      'dkim',
      `${DKIM_SELECTOR}._domainkey`,
      'TXT',
      dkimValue(input.dkimPublicKey),
      'DKIM: the public key receivers check the signature of every message from this domain with.',
    ),
    spf: rec(
      'spf',
      '@',
      'TXT',
      spfValue(input.ipv4, input.ipv6),
      'SPF: the servers allowed to send mail as this domain; receivers refuse the others.',
    ),
    dmarc: dmarcOptions[input.dmarcPolicy],
    dmarcOptions,
    mx: [
      rec('mx', '@', 'MX', `mail.${d}.`, `MX: mail to @${d} is delivered to this server.`, 10),
      rec('mail-a', 'mail', 'A', input.ipv4, `mail.${d} is this server's IPv4 address.`),
      ...(input.ipv6
        ? [rec('mail-aaaa', 'mail', 'AAAA', input.ipv6, `mail.${d} is this server's IPv6 address.`)]
        : []),
    ],
  };
}

/** Every record to publish, in the page's order: DKIM, SPF, DMARC, MX, mail A/AAAA. */
export function mailDnsRecords(values: MailDnsValues): MailDnsRecord[] {
  return [values.dkim, values.spf, values.dmarc, ...values.mx];
}

/**
 * The SPF record to publish when the domain has one already (`existing`, the TXT texts at the
 * domain): ours merged into theirs, so the domain keeps one `v=spf1` (two are a permerror).
 */
export function spfToPublish(values: MailDnsValues, existing: readonly string[]): SpfMerge {
  return mergeSpf(existing, { ipv4: values.ipv4, ipv6: values.ipv6 });
}
