/**
 * IPv4 and IPv6 addresses and CIDR blocks as the firewall lists take them: parsed without any
 * platform library (the browser, the panel and the agent share this file), normalized to one
 * spelling (host bits cleared, IPv6 in RFC 5952 form, /32 and /128 dropped) so that duplicates
 * are found whatever way a user wrote them, and so that nft receives only text we produced.
 */
export interface Cidr {
  family: 4 | 6;
  /** 4 or 16 bytes, host bits already cleared. */
  bytes: number[];
  prefix: number;
}

function parseV4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^(0|[1-9]\d{0,2})$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

function parseV6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const words = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        // An embedded IPv4 address (::ffff:192.0.2.1) makes the last two words.
        const v4 = parseV4(piece);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = words(halves[0]!);
  const tail = halves.length === 2 ? words(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<number>(missing).fill(0), ...tail];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

function clearHostBits(bytes: number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const bits = Math.min(8, Math.max(0, prefix - i * 8));
    return b & ((0xff00 >> bits) & 0xff);
  });
}

/** An address or a block (`192.0.2.0/24`, `2001:db8::/32`), or null when it is neither. */
export function parseCidr(input: string): Cidr | null {
  const text = input.trim();
  const [addr, len, extra] = text.split('/');
  if (extra !== undefined || !addr) return null;
  const v4 = parseV4(addr);
  const bytes = v4 ?? parseV6(addr);
  if (!bytes) return null;
  const family = v4 ? 4 : 6;
  const max = family === 4 ? 32 : 128;
  if (len !== undefined && !/^(0|[1-9]\d{0,2})$/.test(len)) return null;
  const prefix = len === undefined ? max : Number(len);
  if (prefix > max) return null;
  return { family, bytes: clearHostBits(bytes, prefix), prefix };
}

function v6Text(bytes: number[]): string {
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  // RFC 5952: the longest run (first of equals) of two or more zero words becomes `::`.
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j += 1;
    if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

export const addressText = (c: Pick<Cidr, 'family' | 'bytes'>) =>
  c.family === 4 ? c.bytes.join('.') : v6Text(c.bytes);

/** The one spelling of an address or block: `192.0.2.0/24`, `2001:db8::1`. */
export function cidrText(c: Cidr): string {
  const full = c.prefix === (c.family === 4 ? 32 : 128);
  return full ? addressText(c) : `${addressText(c)}/${c.prefix}`;
}

/** The normalized form of a valid entry, or null. */
export function normalizeCidr(input: string): string | null {
  const c = parseCidr(input);
  return c ? cidrText(c) : null;
}

/** `inner` lies in `outer` (same family, outer's prefix no longer, same leading bits). */
export function contains(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || outer.prefix > inner.prefix) return false;
  const masked = clearHostBits(inner.bytes, outer.prefix);
  return masked.every((b, i) => b === outer.bytes[i]);
}

/** The host's own loopback addresses: denying them would cut the server off from itself. */
export const SELF_ADDRESSES = ['127.0.0.1', '::1'].map((a) => parseCidr(a)!);

/** What is wrong with an entry for a firewall list, or null when it may be listed. */
export function entryProblem(input: string): string | null {
  const c = parseCidr(input);
  if (!c) return 'An IPv4 or IPv6 address, or a block in CIDR form (192.0.2.0/24)';
  if (c.prefix === 0) return 'A rule for every address (/0) is not allowed: name addresses';
  return null;
}
