/**
 * The one `Range` form restic sends for partial reads of a pack (`bytes=a-b`, `bytes=a-`, and
 * the suffix form `bytes=-n` for completeness). Several ranges in one header are not asked for
 * by restic; they are answered whole, as RFC 9110 allows a server to ignore a Range.
 */
export type RangeAnswer =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, from, to] = match;
  if (from === '') {
    const length = Number(to);
    if (length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
