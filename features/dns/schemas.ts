/**
 * DNS's API schemas: names, one schema a record type, a record and a zone as the API shows them.
 * The resource declarations that use them are in resource.ts.
 */
import { z } from 'zod';

/** A host name: labels of letters, digits, `-` and `_`, an optional trailing dot. */
const HOST =
  /^(?=.{1,253}\.?$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.?$/;

export const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(HOST, 'A host name like mail.example.com')
  .transform((h) => h.replace(/\.$/, ''));

/** A zone: a registered domain or a sub-domain, at least two labels. */
export const zoneName = hostName.refine((n) => n.includes('.'), 'A domain like example.com');

/** `@` for the zone itself, a name inside the zone (`www`, `_sip._tcp`), or `*` / `*.sub`. */
export const recordName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Use @ for the domain itself')
  .max(253)
  .regex(/^(@|(\*\.)?[a-z0-9_*]([a-z0-9_.-]*[a-z0-9_])?\.?)$/, 'A name like www, @ or *.dev')
  // What no provider takes: an empty part (`a..b`) or one over DNS's 63 characters.
  .refine(
    (n) =>
      n === '@' ||
      n
        .replace(/\.$/, '')
        .split('.')
        .every((label) => label.length >= 1 && label.length <= 63),
    'Each part between dots: 1 to 63 characters',
  );

const ttl = z.coerce.number().int().min(60, 'At least 60 seconds').max(86400).default(3600);
const u16 = z.coerce.number().int().min(0).max(65535);

const base = { name: recordName, ttl };

/** One schema a record type: the form, the API and both providers use these. */
export const recordTypes = {
  A: z.object({
    type: z.literal('A'),
    ...base,
    content: z.ipv4('An IPv4 address like 203.0.113.10'),
  }),
  AAAA: z.object({
    type: z.literal('AAAA'),
    ...base,
    content: z.ipv6('An IPv6 address like 2001:db8::1'),
  }),
  CNAME: z.object({ type: z.literal('CNAME'), ...base, content: hostName }),
  MX: z.object({ type: z.literal('MX'), ...base, priority: u16.default(10), content: hostName }),
  TXT: z.object({
    type: z.literal('TXT'),
    ...base,
    content: z
      .string()
      .min(1, 'Required')
      .max(2048)
      .regex(/^[\x20-\x7e]*$/, 'Printable ASCII on one line'),
  }),
  NS: z.object({ type: z.literal('NS'), ...base, content: hostName }),
  SRV: z.object({
    type: z.literal('SRV'),
    ...base,
    priority: u16.default(10),
    weight: u16.default(5),
    port: u16,
    /** The target host. */
    content: hostName,
  }),
  CAA: z
    .object({
      type: z.literal('CAA'),
      ...base,
      flags: z.coerce.number().int().min(0).max(255).default(0),
      tag: z.enum(['issue', 'issuewild', 'iodef']),
      /** The CA's domain (issue, issuewild) or a mailto:/https: address (iodef). */
      content: z
        .string()
        .trim()
        .min(1, 'Required')
        .max(255)
        .regex(/^[\x21-\x7e]+$/, 'No spaces or quotes')
        .refine((v) => !v.includes('"'), 'No quotes'),
    })
    .refine((r) => r.tag !== 'iodef' || /^(mailto:|https?:\/\/)\S/i.test(r.content), {
      message: 'Where to report: mailto:security@example.com or an https:// address',
      path: ['content'],
    }),
} as const;

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** A record as written by a client: one schema a type, told apart by `type`. */
export const dnsRecordInput = z.discriminatedUnion('type', [
  recordTypes.A,
  recordTypes.AAAA,
  recordTypes.CNAME,
  recordTypes.MX,
  recordTypes.TXT,
  recordTypes.NS,
  recordTypes.SRV,
  recordTypes.CAA,
]);
export type DnsRecordInput = z.output<typeof dnsRecordInput>;

/**
 * The wire shape of a record body: every field of every type, checked by the type's own schema
 * (`dnsRecordInput`), so a 400 names the fields and the OpenAPI document lists them.
 */
export const dnsRecordBody = z
  .object({
    type: z.enum(DNS_RECORD_TYPES),
    name: recordName,
    ttl,
    content: z.string().max(2048),
    priority: u16.optional(),
    weight: u16.optional(),
    port: u16.optional(),
    flags: z.coerce.number().int().min(0).max(255).optional(),
    tag: z.enum(['issue', 'issuewild', 'iodef']).optional(),
  })
  .superRefine((value, ctx) => {
    const parsed = dnsRecordInput.safeParse(value);
    if (parsed.success) return;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });

/** A record as the API shows it: the panel's id, the full name, and the typed fields. */
export const dnsRecordSchema = z.object({
  id: z.number().int(),
  zone_id: z.number().int(),
  type: z.enum(DNS_RECORD_TYPES),
  /** Relative to the zone, `@` for the zone itself. */
  name: z.string(),
  fqdn: z.string(),
  ttl: z.number().int(),
  content: z.string(),
  priority: z.number().int().nullable(),
  weight: z.number().int().nullable(),
  port: z.number().int().nullable(),
  flags: z.number().int().nullable(),
  tag: z.string().nullable(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const dnsZoneSchema = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  label: z.string(),
  provider: z.string(),
  name: z.string(),
  /** The provider's own id of the zone. */
  provider_zone_id: z.string(),
  created_at: z.string(),
});
export type DnsZone = z.infer<typeof dnsZoneSchema>;

export const dnsZoneInput = z.object({
  name: zoneName,
  /** PowerDNS: the zone's name servers (NS records); by default ns1 and ns2 of the zone. */
  nameservers: z.array(hostName).max(8).optional(),
});
