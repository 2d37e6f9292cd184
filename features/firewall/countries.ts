/**
 * Country ranges as the admin loads them: the common `start_ip,end_ip,country_code` CSV of
 * DB-IP's "IP to Country Lite" and IPtoASN (IPv4 and IPv6 rows, fields optionally in double
 * quotes, a header line allowed). Each range becomes an nft interval element `start-end`.
 */
import { addressText, parseCidr } from './addresses';

export const COUNTRY_CODE = /^[A-Z]{2}$/;

export interface CountryRange {
  country: string;
  /** `start-end` (or one address), normalized: what the nft set takes. */
  range: string;
  family: 4 | 6;
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** One line's range, or null when it is not one (a header, a comment, garbage). */
export function parseRangeLine(line: string): CountryRange | null {
  const fields = line.split(',').map(unquote);
  if (fields.length < 3) return null;
  const [from, to, cc] = fields as [string, string, string];
  const country = cc.toUpperCase();
  if (!COUNTRY_CODE.test(country)) return null;
  const a = parseCidr(from);
  const b = parseCidr(to);
  const full = (c: ReturnType<typeof parseCidr>) => c && c.prefix === (c.family === 4 ? 32 : 128);
  if (!a || !b || !full(a) || !full(b) || a.family !== b.family) return null;
  const order = compare(a.bytes, b.bytes);
  if (order > 0) return null;
  const range = order === 0 ? addressText(a) : `${addressText(a)}-${addressText(b)}`;
  return { country, range, family: a.family };
}

/** Every range of a CSV, and how many non-empty lines were not ranges. */
export function parseRangesCsv(csv: string): { ranges: CountryRange[]; skipped: number } {
  const ranges: CountryRange[] = [];
  let skipped = 0;
  for (const line of csv.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const range = parseRangeLine(line);
    if (range) ranges.push(range);
    else skipped += 1;
  }
  return { ranges, skipped };
}

/** What an nft set element of a country range looks like (checked again by the agent). */
export function isRangeElement(text: string): boolean {
  const [a, b, extra] = text.split('-');
  if (extra !== undefined || !a) return false;
  const pa = parseCidr(a);
  if (!pa || addressText(pa) !== a || pa.prefix !== (pa.family === 4 ? 32 : 128)) return false;
  if (b === undefined) return true;
  const pb = parseCidr(b);
  return Boolean(
    pb && pb.family === pa.family && addressText(pb) === b && compare(pa.bytes, pb.bytes) < 0,
  );
}
