/**
 * SPF records read and merged (RFC 7208): a domain has one `v=spf1` record at most (two are a
 * permerror), and evaluating it may cost at most 10 DNS lookups. Pure, like dnsValues.ts.
 */

/** RFC 7208 §4.6.4: include, a, mx, ptr, exists and redirect= cost a lookup each. */
export const SPF_LOOKUP_LIMIT = 10;

/** Whether a TXT text is an SPF record (`v=spf1` then a space or the end, any case). */
export const isSpf = (text: string) => /^v=spf1(\s|$)/i.test(text.trim());

const terms = (text: string) => text.trim().split(/\s+/).slice(1).filter(Boolean);

/** The mechanism of a term without its qualifier, lower-cased: `-all` -> `all`, `ip4:…`. */
function mechanism(term: string): { qualifier: string; name: string; value: string } {
  const q = /^[+\-~?]/.test(term) ? term[0]! : '+';
  const body = q === '+' && term[0] !== '+' ? term : term.slice(1);
  const m = /^([a-z0-9]+)(([:=/])(.*))?$/i.exec(body);
  const value = m?.[3] === '/' ? `/${m[4] ?? ''}` : (m?.[4] ?? '');
  return { qualifier: q, name: (m?.[1] ?? body).toLowerCase(), value };
}

/** DNS lookups the record's own terms cost (nested includes cost more: not counted here). */
export function spfLookups(text: string): number {
  return terms(text).filter((t) =>
    ['include', 'a', 'mx', 'ptr', 'exists', 'redirect'].includes(mechanism(t).name),
  ).length;
}

function ipv4Bits(ip: string): bigint | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function ipv6Bits(ip: string): bigint | null {
  let text = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const bits = ipv4Bits(v4[1]!);
    if (bits === null) return null;
    text = `${text.slice(0, -v4[1]!.length)}${(bits >> 16n).toString(16)}:${(bits & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s ? s.split(':') : []);
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const all = [...head, ...Array<string>(fill).fill('0'), ...tail];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** Whether `ip` lies in the SPF network `net` (`192.0.2.0/24`, `2001:db8::/32`, a bare address). */
export function inNetwork(ip: string, net: string, family: 4 | 6): boolean {
  const [address = '', len] = net.split('/');
  const width = family === 4 ? 32 : 128;
  const bits = family === 4 ? ipv4Bits : ipv6Bits;
  const prefix = len === undefined ? width : Number(len);
  const a = bits(ip);
  const b = bits(address);
  if (a === null || b === null || !Number.isInteger(prefix) || prefix < 0 || prefix > width)
    return false;
  const shift = BigInt(width - prefix);
  return a >> shift === b >> shift;
}

/** Whether an SPF text lets `ip` send by an `ip4:`/`ip6:` term that passes (`+`, the default). */
export function spfCoversIp(text: string, ip: string, family: 4 | 6): boolean {
  return terms(text).some((t) => {
    const m = mechanism(t);
    return m.qualifier === '+' && m.name === `ip${family}` && inNetwork(ip, m.value, family);
  });
}

export interface SpfMerge {
  /** The one SPF record to publish. */
  content: string;
  /** The SPF records found, as they were. */
  found: string[];
  /** The terms we added to what was found (all of ours when none was found). */
  added: string[];
  /** Whether `content` differs from the (single) record found. */
  changed: boolean;
  /** The DNS lookups of `content`'s own terms. */
  lookups: number;
  /** Sentences for the page. */
  warnings: string[];
}

/**
 * Our mechanisms (`mx`, `ip4:<ipv4>`, `ip6:<ipv6>`) merged into the domain's SPF record: the
 * missing ones go before its `all` (or its `redirect=`), nothing of theirs is dropped. Several
 * records found become one (their terms joined, the first one's `all` kept). With none found,
 * ours whole: `v=spf1 mx a ip4:… [ip6:…] -all`.
 */
export function mergeSpf(
  existingTxt: readonly string[],
  want: { ipv4: string; ipv6?: string | undefined },
): SpfMerge {
  const found = existingTxt.map((t) => t.trim()).filter(isSpf);
  const warnings: string[] = [];
  const ours = ['mx', `ip4:${want.ipv4}`, ...(want.ipv6 ? [`ip6:${want.ipv6}`] : [])];
  if (found.length === 0) {
    const content = ['v=spf1', 'mx', 'a', ...ours.slice(1), '-all'].join(' ');
    return { content, found, added: ours, changed: true, lookups: spfLookups(content), warnings };
  }
  if (found.length > 1)
    warnings.push(
      `The domain has ${found.length} SPF records; receivers treat that as an error, so they are merged into one.`,
    );
  // Every term once (case-insensitively): the first record's, then the others' new ones and
  // ours, all before the first record's `all` (or `redirect=`): terms after `all` are never read.
  const list: string[] = [];
  const seen = new Set<string>();
  const end = () => {
    const all = list.findIndex((t) => mechanism(t).name === 'all');
    const redirect = list.findIndex((t) => mechanism(t).name === 'redirect');
    return all >= 0 ? all : redirect >= 0 ? redirect : list.length;
  };
  found.forEach((record, i) => {
    for (const t of terms(record)) {
      const key = t.toLowerCase();
      const name = mechanism(t).name;
      if (seen.has(key)) continue;
      // A second record's `all` or `redirect=` would contradict the first's.
      if (i > 0 && (name === 'all' || name === 'redirect')) continue;
      seen.add(key);
      if (i === 0) list.push(t);
      else list.splice(end(), 0, t);
    }
  });
  const text = () => ['v=spf1', ...list].join(' ');
  const missing = ours.filter((term) => {
    // `mx` or `mx/24` names the domain's own MX; `mx:other.example` does not.
    if (term === 'mx')
      return !list.some((t) => {
        const m = mechanism(t);
        return m.qualifier === '+' && m.name === 'mx' && (m.value === '' || m.value[0] === '/');
      });
    const family = term.startsWith('ip4:') ? 4 : 6;
    return !spfCoversIp(text(), term.slice(4), family);
  });
  const added = missing;
  list.splice(end(), 0, ...missing);
  const content = text();
  const lookups = spfLookups(content);
  if (lookups > SPF_LOOKUP_LIMIT)
    warnings.push(
      `The SPF record needs ${lookups} DNS lookups; receivers stop at ${SPF_LOOKUP_LIMIT} and then fail it. Replace some include: with ip4:/ip6: addresses.`,
    );
  const all = list.find((t) => mechanism(t).name === 'all');
  if (all && mechanism(all).qualifier === '+')
    warnings.push(
      'The SPF record ends in +all: it lets any server on the internet send as the domain.',
    );
  if (list.some((t) => mechanism(t).name === 'ptr'))
    warnings.push(
      'The SPF record uses ptr, which RFC 7208 says not to use: many receivers ignore it.',
    );
  return {
    content,
    found,
    added,
    changed: found.length !== 1 || content !== found[0],
    lookups,
    warnings,
  };
}
