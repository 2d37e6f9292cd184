/**
 * The denied countries' ranges as nft holds them: every range split into CIDR blocks, one
 * plain hash set per family and prefix length (`ccdeny4_24`: the /24 blocks), matched by
 * `ip saddr & <mask>` in the table's `countries` chain. Not interval sets: nft 1.0.6 (Debian
 * 12) reads every interval set's elements back from the kernel before any element is added
 * anywhere, so 200,000 ranges in one made each change of the allow or deny list take seconds;
 * hash sets are not read back. The same addresses are denied, block for block.
 *
 * The file (agentCc.ts writes it once per list) adds the sets, their elements and the rules to
 * the table its includer has just made, in the same transaction.
 */
import { type Cidr, addressText, parseCidr } from './addresses';
import { TABLE } from './render';

const toBig = (bytes: readonly number[]) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
const toBytes = (n: bigint, count: number) =>
  Array.from({ length: count }, (_, i) => Number((n >> BigInt(8 * (count - 1 - i))) & 255n));

/** The fewest CIDR blocks that cover exactly `start-end` (or one address). */
export function rangeBlocks(range: string): Cidr[] {
  const [a, b] = range.split('-');
  const first = parseCidr(a!)!;
  const family = first.family;
  const bits = family === 4 ? 32 : 128;
  const bytes = bits / 8;
  let start = toBig(first.bytes);
  const end = b === undefined ? start : toBig(parseCidr(b)!.bytes);
  const out: Cidr[] = [];
  while (start <= end) {
    let prefix = bits;
    // Grow the block while it stays aligned on `start` and ends by `end`.
    while (prefix > 0) {
      const size = 1n << BigInt(bits - prefix + 1);
      if (start % size !== 0n || start + size - 1n > end) break;
      prefix--;
    }
    out.push({ family, bytes: toBytes(start, bytes), prefix });
    start += 1n << BigInt(bits - prefix);
  }
  return out;
}

/** The mask of a prefix length in the family's notation. */
function maskOf(family: 4 | 6, prefix: number): string {
  const bits = family === 4 ? 32 : 128;
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  return addressText({ family, bytes: toBytes(mask, bits / 8) });
}

export const setNameOf = (family: 4 | 6, prefix: number) => `ccdeny${family}_${prefix}`;

/** A countries file: its sets, their blocks and one rule per set in the `countries` chain. */
export function renderCountries(key: string, ranges: readonly string[]): string {
  const sets = new Map<string, { family: 4 | 6; prefix: number; blocks: Set<string> }>();
  for (const range of ranges)
    for (const block of rangeBlocks(range)) {
      const name = setNameOf(block.family, block.prefix);
      let set = sets.get(name);
      if (!set)
        sets.set(name, (set = { family: block.family, prefix: block.prefix, blocks: new Set() }));
      set.blocks.add(addressText(block));
    }
  const lines = [`# Country ranges denied by the Stackdeck panel (list ${key})`];
  const ordered = [...sets].sort(([, x], [, y]) => x.family - y.family || x.prefix - y.prefix);
  for (const [name, { family, prefix, blocks }] of ordered) {
    const ip = family === 4 ? 'ip' : 'ip6';
    const full = prefix === (family === 4 ? 32 : 128);
    const match = full ? `${ip} saddr` : `${ip} saddr & ${maskOf(family, prefix)}`;
    lines.push(
      `add set inet ${TABLE} ${name} { type ${family === 4 ? 'ipv4_addr' : 'ipv6_addr'}; }`,
      `add element inet ${TABLE} ${name} {`,
      [...blocks].join(',\n'),
      '}',
      `add rule inet ${TABLE} countries ${match} @${name} drop`,
    );
  }
  return `${lines.join('\n')}\n`;
}
