/**
 * Which addresses a user-given address may reach (SSRF): loopback, private, link-local (cloud
 * metadata services), shared, reserved and multicast ranges are refused unless the
 * administrator allows them (OUTBOUND_ALLOW). Shared by the panel (server/http/outbound.ts, git
 * repository URLs) and the agent (git clones, release downloads), both Node.
 */
import { BlockList, isIP } from 'node:net';

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

/**
 * `allow`: host names, addresses or CIDRs (`10.0.0.0/8`, `fd00::/8`) that user-given addresses
 * may reach although private. The answer tells whether `host` may be reached at `address`.
 */
export function addressAllowed(
  allow: readonly string[],
): (host: string, address: string) => boolean {
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
  return (host, address) => {
    if (allowedHosts.has(host.toLowerCase().replace(/\.$/, ''))) return true;
    if (allowedNets.check(address, familyOf(address))) return true;
    const target = judged(address);
    return (
      allowedNets.check(target.address, target.family) ||
      !PRIVATE.check(target.address, target.family)
    );
  };
}

/**
 * The address a URL's host names literally, as the resolver reads it: a dotted quad, and also
 * the forms inet_aton (ssh, git's resolver) and URL parsers take, `2130706433`, `0x7f.1`,
 * `0177.0.0.1`; null for a host name.
 */
export function literalAddress(host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return bare;
  if (!/^[0-9a-fA-FxX.]+$/.test(bare)) return null;
  try {
    // WHATWG URL reads IPv4 numbers in every base and short form, as inet_aton does.
    const read = new URL(`http://${bare}/`).hostname;
    return isIP(read) === 4 ? read : null;
  } catch {
    return null;
  }
}
