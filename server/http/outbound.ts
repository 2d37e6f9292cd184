import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent } from 'undici';

/**
 * Calls to addresses a user chose (a self-hosted PowerDNS API, later an S3 endpoint) go through
 * here: such an address may not reach the panel's own host, its network or a cloud metadata
 * service (SSRF), unless the administrator allows it with OUTBOUND_ALLOW. The check runs on the
 * address actually connected to, so a name that resolves elsewhere at connect time (DNS
 * rebinding) is refused too.
 */
export class OutboundBlockedError extends Error {
  readonly code = 'EOUTBOUNDBLOCKED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host === address ? address : `${host} (${address})`} is a private or local address; ` +
        'the panel administrator can allow it with OUTBOUND_ALLOW',
    );
  }
}

/** Loopback, private, link-local (metadata services), shared, reserved and multicast ranges. */
function privateRanges(): BlockList {
  const list = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  for (const [net, bits] of v4) list.addSubnet(net, bits, 'ipv4');
  // IPv6 forms that carry an IPv4 address (mapped, translated, NAT64 well-known, 6to4) never
  // reach this list: they are judged by that address (see `judged`). Those listed refuse whole.
  const v6: [string, number][] = [
    ['::', 96], // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
    ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): where it puts the IPv4 address is local
    ['100::', 64],
    ['2001::', 32], // Teredo: a tunnel to an (obfuscated) IPv4 client behind a NAT
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ];
  for (const [net, bits] of v6) list.addSubnet(net, bits, 'ipv6');
  return list;
}

const PRIVATE = privateRanges();

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The 16 bytes of an IPv6 address in any spelling (`::`, a dotted tail, a `%zone`). */
function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const ZEROS_80 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/** Prefixes whose address carries an IPv4 address, and where. */
const EMBEDDING: { prefix: number[]; at: number }[] = [
  { prefix: [...ZEROS_80, 0xff, 0xff], at: 12 }, // IPv4-mapped ::ffff:0:0/96
  { prefix: [...ZEROS_80.slice(2), 0xff, 0xff, 0, 0], at: 12 }, // IPv4-translated ::ffff:0:0:0/96
  { prefix: [0, 0x64, 0xff, 0x9b, ...ZEROS_80.slice(2)], at: 12 }, // NAT64 64:ff9b::/96
  { prefix: [0x20, 0x02], at: 2 }, // 6to4 2002::/16
];

/**
 * The address to judge: an IPv6 address that carries an IPv4 one (mapped or translated in any
 * spelling, NAT64's well-known prefix, 6to4) is judged by the IPv4 address it reaches.
 */
function judged(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { address, family: 'ipv4' };
  const bytes = ipv6Bytes(address);
  for (const { prefix, at } of EMBEDDING) {
    if (startsWith(bytes, prefix))
      return { address: bytes.slice(at, at + 4).join('.'), family: 'ipv4' };
  }
  return { address, family: 'ipv6' };
}

export interface OutboundPolicy {
  /** Whether `host` may be reached at `address`. */
  allows(host: string, address: string): boolean;
  /** Throws OutboundBlockedError when a URL names a refused address literally. */
  checkUrl(url: string): void;
  /** The dispatcher for fetch: every connection's address is checked. */
  readonly dispatcher: Agent;
}

/**
 * `allow`: host names, addresses or CIDRs (`10.0.0.0/8`, `fd00::/8`) that user-given addresses
 * may reach although private.
 */
export function outboundPolicy(allow: readonly string[]): OutboundPolicy {
  const allowedHosts = new Set<string>();
  const allowedNets = new BlockList();
  for (const entry of allow) {
    const [net = '', bits] = entry.split('/');
    if (isIP(net)) {
      const family = familyOf(net);
      const prefix = bits === undefined ? (family === 'ipv4' ? 32 : 128) : Number(bits);
      allowedNets.addSubnet(net, prefix, family);
    } else {
      allowedHosts.add(entry.toLowerCase().replace(/\.$/, ''));
    }
  }

  const allows = (host: string, address: string): boolean => {
    if (allowedHosts.has(host.toLowerCase().replace(/\.$/, ''))) return true;
    if (allowedNets.check(address, familyOf(address))) return true;
    const target = judged(address);
    return (
      allowedNets.check(target.address, target.family) ||
      !PRIVATE.check(target.address, target.family)
    );
  };

  // net.connect asks this for every name (never for a literal address: see checkUrl).
  const guardedLookup = (
    hostname: string,
    options: LookupOptions,
    callback: (
      err: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !allows(hostname, a.address));
      if (refused) return callback(new OutboundBlockedError(hostname, refused.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };

  return {
    allows,
    checkUrl(url: string) {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !allows(host, host)) throw new OutboundBlockedError(host, host);
    },
    dispatcher: new Agent({ connect: { lookup: guardedLookup } }),
  };
}

/** OUTBOUND_ALLOW: comma- or space-separated host names, addresses and CIDRs. */
export function parseOutboundAllow(value: string | undefined): string[] {
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [net, bits, extra] = entry.split('/');
    if (extra !== undefined || (bits !== undefined && !isIP(net ?? '')))
      throw new Error(`OUTBOUND_ALLOW: "${entry}" is not a host name, address or CIDR`);
    if (bits !== undefined) {
      const max = isIP(net ?? '') === 4 ? 32 : 128;
      const n = Number(bits);
      if (!/^\d+$/.test(bits) || n > max)
        throw new Error(`OUTBOUND_ALLOW: "${entry}" has a prefix length out of 0-${max}`);
    } else if (!isIP(entry) && !/^[A-Za-z0-9.-]+$/.test(entry)) {
      throw new Error(`OUTBOUND_ALLOW: "${entry}" is not a host name, address or CIDR`);
    }
  }
  return entries;
}
