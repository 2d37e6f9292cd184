/**
 * Search-and-replace that keeps PHP-serialized data valid (issue 11, research §3): a plain text
 * replace breaks every `s:<bytes>:"…"` whose payload changes length (widgets, theme mods,
 * page-builder data). Values are parsed with PHP's serialize grammar, strings are replaced
 * inside their payloads (recursing into payloads that are serialized again) and each length is
 * rewritten as the payload's byte length. Nothing is ever instantiated: this is text, not PHP.
 *
 * Bytes throughout: a value is read as latin1 (one char per byte, lossless even for invalid
 * UTF-8), so a string's `.length` is its byte length and nothing is re-encoded on the way out.
 * Pure TypeScript: the agent and the panel both import it.
 */

export type Pair = [from: string, to: string];

export interface Replaced {
  value: Buffer;
  changed: boolean;
  /** Part of the value was left as it was: a `C:` payload, or something serialized-looking that did not parse. */
  skipped: boolean;
}

/** Deeper nesting than this is refused (left unchanged, skipped) rather than risking the stack. */
const MAX_DEPTH = 128;

/**
 * What a serialized value starts and ends with (as WordPress's is_serialized checks): such a
 * value that does not parse is left alone, never plain-replaced, since that could only break it.
 */
const LOOKS_SERIALIZED = /^(?:N;|[bid]:[^;]*;|[sSaOCE]:\d+:[\s\S]*[;}])$/;

export const looksSerialized = (s: string) => LOOKS_SERIALIZED.test(s);

/** A matcher for the pairs (already latin1), longest first so `https://x` wins over `//x`. */
interface Matcher {
  re: RegExp;
  to: Map<string, string>;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * A `from` ending in a name character matches only where the name ends: `//a.test` must not
 * rewrite `//a.test.org`, `//a.testing` or `//a.test-2`; a final dot (end of a sentence) is fine.
 */
const NAME_END = '(?![A-Za-z0-9_-]|\\.[A-Za-z0-9-])';

/** Built once per pairs array (treated as immutable): a clone calls replaceInValue per value. */
const matchers = new WeakMap<ReadonlyArray<Pair>, Matcher | null>();

function matcher(pairs: ReadonlyArray<Pair>): Matcher | null {
  if (!matchers.has(pairs)) matchers.set(pairs, buildMatcher(pairs));
  return matchers.get(pairs)!;
}

function buildMatcher(pairs: ReadonlyArray<Pair>): Matcher | null {
  const to = new Map<string, string>();
  for (const [from, repl] of pairs) {
    const f = Buffer.from(from, 'utf8').toString('latin1');
    if (f && !to.has(f)) to.set(f, Buffer.from(repl, 'utf8').toString('latin1'));
  }
  if (!to.size) return null;
  const alts = [...to.keys()]
    .sort((a, b) => b.length - a.length)
    .map((f) => escapeRe(f) + (/[A-Za-z0-9]$/.test(f) ? NAME_END : ''));
  return { re: new RegExp(alts.join('|'), 'g'), to };
}

function plain(s: string, m: Matcher): string {
  m.re.lastIndex = 0;
  return s.replace(m.re, (hit) => m.to.get(hit) ?? hit);
}

class Broken extends Error {}

/** A recursive-descent reader of one serialized value, writing the replaced value as it goes. */
class Parser {
  pos = 0;
  skips = 0;
  constructor(
    private readonly s: string,
    private readonly m: Matcher,
    private readonly depth: number,
  ) {}

  private fail(): never {
    throw new Broken();
  }

  private expect(text: string): void {
    if (!this.s.startsWith(text, this.pos)) this.fail();
    this.pos += text.length;
  }

  /** The characters up to `end` (exclusive), which must match `re`; consumes `end` too. */
  private until(end: string, re: RegExp): string {
    const at = this.s.indexOf(end, this.pos);
    if (at < 0) this.fail();
    const text = this.s.slice(this.pos, at);
    if (!re.test(text)) this.fail();
    this.pos = at + end.length;
    return text;
  }

  /** `<n>:"<n bytes>"` (after the type letter and colon): the raw payload. */
  private counted(): string {
    const n = Number(this.until(':', /^\d{1,10}$/));
    this.expect('"');
    if (this.pos + n > this.s.length) this.fail();
    const payload = this.s.slice(this.pos, this.pos + n);
    this.pos += n;
    this.expect('"');
    return payload;
  }

  /** One value; `key` limits it to what PHP accepts as an array key and replaces nothing. */
  value(level: number, key = false): string {
    if (level > MAX_DEPTH) this.fail();
    const start = this.pos;
    const type = this.s.slice(this.pos, this.pos + 2);
    this.pos += 2;
    if (key && type !== 'i:' && type !== 's:') this.fail();
    switch (type) {
      case 'N;':
        return 'N;';
      case 'b:':
        this.until(';', /^[01]$/);
        break;
      case 'i:':
        this.until(';', /^[+-]?\d+$/);
        break;
      case 'd:':
        this.until(';', /^[+-]?(?:INF|NAN|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/);
        break;
      case 'r:':
      case 'R:':
        this.until(';', /^\d+$/);
        break;
      case 'E:':
        this.counted();
        this.expect(';');
        break;
      case 's:': {
        const payload = this.counted();
        this.expect(';');
        if (key) return this.s.slice(start, this.pos);
        const out = this.payload(payload);
        return `s:${out.length}:"${out}";`;
      }
      case 'a:':
        return `a:${this.members(level)}`;
      case 'O:': {
        this.counted();
        this.expect(':');
        const head = this.s.slice(start, this.pos);
        return head + this.members(level);
      }
      case 'C:': {
        // A class's own format (Serializable): opaque, kept byte for byte.
        this.counted();
        this.expect(':');
        const n = Number(this.until(':', /^\d{1,10}$/));
        this.expect('{');
        this.pos += n;
        if (this.pos > this.s.length) this.fail();
        this.expect('}');
        this.skips++;
        break;
      }
      default:
        this.fail();
    }
    return this.s.slice(start, this.pos);
  }

  /** `<n>:{key value …}` of an array or object, values replaced, keys kept. */
  private members(level: number): string {
    const n = Number(this.until(':', /^\d{1,9}$/));
    this.expect('{');
    let out = `${n}:{`;
    for (let i = 0; i < n; i++) {
      out += this.value(level + 1, true);
      out += this.value(level + 1);
    }
    this.expect('}');
    return `${out}}`;
  }

  /** A string's payload: serialized again (recursed into), or text (plain replace). */
  private payload(payload: string): string {
    if (!looksSerialized(payload)) return plain(payload, this.m);
    const inner = replaceSerialized(payload, this.m, this.depth + 1);
    this.skips += inner.skips;
    return inner.out ?? payload;
  }
}

/** A whole serialized value replaced, or `out: null` when it does not parse. */
function replaceSerialized(
  s: string,
  m: Matcher,
  depth: number,
): { out: string | null; skips: number } {
  if (depth > MAX_DEPTH) return { out: null, skips: 1 };
  const p = new Parser(s, m, depth);
  try {
    const out = p.value(0);
    if (p.pos !== s.length) return { out: null, skips: 1 };
    return { out, skips: p.skips };
  } catch (e) {
    if (e instanceof Broken) return { out: null, skips: 1 };
    throw e;
  }
}

/**
 * One stored value with every pair replaced. Serialized values keep their structure and get
 * correct byte lengths; `C:` payloads and serialized-looking values that do not parse are left
 * as they are (`skipped`); anything else is a plain replace.
 */
export function replaceInValue(value: Buffer, pairs: ReadonlyArray<Pair>): Replaced {
  const m = matcher(pairs);
  if (!m) return { value, changed: false, skipped: false };
  const s = value.toString('latin1');
  let out: string;
  let skipped = false;
  if (looksSerialized(s)) {
    const r = replaceSerialized(s, m, 0);
    skipped = r.skips > 0;
    out = r.out ?? s;
  } else {
    out = plain(s, m);
  }
  if (out === s) return { value, changed: false, skipped };
  return { value: Buffer.from(out, 'latin1'), changed: true, skipped };
}

/** A host name (IDN as punycode), optionally with a port and a path: what a site's URL holds. */
const SITE = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?(?:\/[A-Za-z0-9._~%-]+)*$/;

/**
 * The pairs that move a site's URLs from one domain to another (research §3): the scheme-full,
 * protocol-relative, JSON-escaped (`https:\/\/`) and URL-encoded forms, longest first.
 */
export function urlPairs(oldDomain: string, newDomain: string): Pair[] {
  for (const d of [oldDomain, newDomain])
    if (!SITE.test(d)) throw new Error(`Not a domain: ${JSON.stringify(d)}`);
  const forms = (d: string) => [
    `https://${d}`,
    `http://${d}`,
    `https:\\/\\/${d.replace(/\//g, '\\/')}`,
    `http:\\/\\/${d.replace(/\//g, '\\/')}`,
    `\\/\\/${d.replace(/\//g, '\\/')}`,
    `https%3A%2F%2F${d.replace(/\//g, '%2F')}`,
    `http%3A%2F%2F${d.replace(/\//g, '%2F')}`,
    `%2F%2F${d.replace(/\//g, '%2F')}`,
    `//${d}`,
  ];
  const from = forms(oldDomain);
  const to = forms(newDomain);
  return from
    .map((f, i): Pair => [f, to[i]!])
    .sort((a, b) => b[0].length - a[0].length || a[0].localeCompare(b[0]));
}
