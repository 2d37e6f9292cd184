/**
 * Port lists as CSF writes them (TCP_IN="20,21,22,80,443,30000:30100"): shown and accepted
 * comma-separated, a range as `from-to` (CSF's `from:to` is read too), stored as sorted,
 * merged ranges so that what the agent renders is always a valid nft interval set.
 */
export type PortRange = [number, number];

/** What is wrong with a comma-separated port list, or null. */
export function portListProblem(text: string): string | null {
  return parsePorts(text) ? null : 'Ports 1-65535, comma-separated; a range as 30000-30100';
}

/** The ranges of a list (`22, 80,443, 30000-30100`), merged and sorted; null when invalid. */
export function parsePorts(text: string): PortRange[] | null {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ranges: PortRange[] = [];
  for (const item of items) {
    const m = /^(\d{1,5})(?:\s*[-:]\s*(\d{1,5}))?$/.exec(item);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to > 65535 || from > to) return null;
    ranges.push([from, to]);
  }
  return mergeRanges(ranges);
}

export function mergeRanges(ranges: PortRange[]): PortRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: PortRange[] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** `22,80,443,30000-30100`: how lists are shown and stored. */
export const formatPorts = (ranges: readonly PortRange[]) =>
  ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');

/** The normalized spelling of a valid list. */
export const normalizePorts = (text: string) => formatPorts(parsePorts(text) ?? []);
