/**
 * The firewall's desired state as the panel sends it to the agent, and the user-facing field
 * schemas it is made of: one set of zod schemas for the panel's validation, the agent's
 * re-validation and the pages' forms.
 */
import { z } from 'zod';
import { entryProblem, normalizeCidr, parseCidr } from './addresses';
import { isRangeElement } from './countries';
import { portListProblem } from './ports';

/** What a user types: an address or block, normalized (`2001:DB8::0001` -> `2001:db8::1`). */
export const ipInput = z
  .string()
  .trim()
  .min(1, 'Give an IP address or a CIDR block')
  .max(64)
  .superRefine((v, ctx) => {
    const problem = entryProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((v) => normalizeCidr(v)!);

/** One address only (temporary rules live in timeout sets, which hold addresses, not blocks). */
export const hostInput = ipInput.refine((v) => !v.includes('/'), 'One address, not a block');

/** What reaches the agent: already normalized text, checked again there, never rewritten. */
export const cidrEntry = z
  .string()
  .max(64)
  .refine((v) => entryProblem(v) === null && normalizeCidr(v) === v, 'A normalized address');
export const hostEntry = cidrEntry.refine(
  (v) => parseCidr(v)?.prefix === (v.includes(':') ? 128 : 32),
);

export const commentInput = z
  .string()
  .trim()
  .max(120)
  // The comment goes into no command line, but keep it printable: it is shown in lists.
  .refine((v) => !/[\p{Cc}]/u.test(v), 'One line of text')
  .default('');

export const portListInput = z
  .string()
  .trim()
  .max(2000)
  .superRefine((v, ctx) => {
    const problem = portListProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const port = z.number().int().min(1).max(65535);
export const portRange = z.tuple([port, port]).refine(([a, b]) => a <= b, 'from <= to');

/** CSF's DDoS knobs, with the ranges nft accepts. */
export const ddosLimits = z.object({
  /** New TCP connections per second the server takes in all (SYNFLOOD_RATE). */
  syn_flood_rate: z.number().int().min(1).max(1_000_000),
  /** Burst above the rate (SYNFLOOD_BURST). */
  syn_flood_burst: z.number().int().min(1).max(1_000_000),
  /** Concurrent connections per source address; 0 = no limit (CONNLIMIT). */
  conn_limit: z.number().int().min(0).max(100_000),
  /** New connections one address may open to one port within `port_flood_seconds` (PORTFLOOD); 0 = off. */
  port_flood_hits: z.number().int().min(0).max(100_000),
  port_flood_seconds: z.number().int().min(1).max(86_400),
});
export type DdosLimits = z.infer<typeof ddosLimits>;

export const tempKind = z.enum(['allow', 'deny']);
export const tempElement = z.object({
  kind: tempKind,
  ip: hostEntry,
  /** A TCP port the rule is limited to; null: every port. */
  port: port.nullable(),
  /** Seconds left. */
  ttl: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400),
});
export type TempElement = z.infer<typeof tempElement>;

const MAX_LIST = 50_000;
/**
 * Ranges of denied countries one server takes: they reach the agent in parts (the agent link
 * takes messages up to 1 MB), and nft loads 200,000 in one checked transaction in seconds.
 */
export const MAX_CC_RANGES = 250_000;
/** Ranges one part carries (IPv6 ranges take up to 79 characters: 8,000 stay under 700 kB). */
export const CC_PART_MAX = 8_000;
const MAX_PARTS = Math.ceil(MAX_CC_RANGES / CC_PART_MAX);

/** A country range as nft takes it: `start-end` or one address, normalized. */
export const ccRange = z.string().max(90).refine(isRangeElement, 'A range start-end');

export const firewallState = z.object({
  enabled: z.boolean(),
  ddos_status: z.boolean(),
  ddos: ddosLimits,
  tcp_in: z.array(portRange).max(1000),
  udp_in: z.array(portRange).max(1000),
  /** Outbound lists: empty leaves outbound traffic unfiltered (CSF's TCP_OUT without LF_SPI). */
  tcp_out: z.array(portRange).max(1000),
  udp_out: z.array(portRange).max(1000),
  allow: z.array(cidrEntry).max(MAX_LIST),
  deny: z.array(cidrEntry).max(MAX_LIST),
  temp: z.array(tempElement).max(10_000),
});
export type FirewallState = z.infer<typeof firewallState>;

/** A sha256 in hex: names a country range list (ccRef) or proves its content whole. */
export const ccKey = z.string().regex(/^[0-9a-f]{64}$/, 'A sha256 in hex');
/** One part of a country range list, staged by the agent until an apply names its key. */
export const ccPart = z.object({
  key: ccKey,
  part: z
    .number()
    .int()
    .min(0)
    .max(MAX_PARTS - 1),
  ranges: z.array(ccRange).min(1).max(CC_PART_MAX),
});
/**
 * The country list an apply uses. `key` names it by what it is made of (the countries and when
 * their ranges were loaded), so the panel names it without reading its ranges; the agent keeps
 * it as an nft file of its own under that key. `sent`: the list was just sent in parts (ccPart),
 * and the agent joins them and checks their count, their sha256 and every range; null: the
 * agent holds the list already (ccHave).
 */
export const ccRef = z.object({
  key: ccKey,
  sent: z
    .object({
      parts: z.number().int().min(1).max(MAX_PARTS),
      count: z.number().int().min(1).max(MAX_CC_RANGES),
      sha256: ccKey,
    })
    .nullable(),
});
export type CcRef = z.infer<typeof ccRef>;

/** One element added or taken out at runtime (no reload), the state file rewritten alongside. */
export const firewallChange = z.object({
  action: z.enum(['add', 'delete']),
  list: z.enum(['allow', 'deny', 'tempallow', 'tempdeny']),
  ip: cidrEntry,
  port: port.nullable(),
  ttl: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .nullable(),
});
export type FirewallChange = z.infer<typeof firewallChange>;
