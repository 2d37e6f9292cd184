/**
 * The value axis of a stats chart, fitted to the samples of the range shown: a CPU at 2 % is
 * drawn over 0–3 %, not flat along the bottom of 0–100 %. Pure, so a unit test holds it.
 */

/** Where the axis may never go (a percentage stays within 0–100, a size above 0). */
export type AxisBounds = readonly [number, number];

/** A round step near a tenth of the span (1, 2 or 5 times a power of ten). */
function niceStep(span: number): number {
  const raw = span / 10;
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = [1, 2, 5, 10].find((f) => f * power >= raw)!;
  return factor * power;
}

export function fitDomain(
  samples: readonly Record<string, number>[],
  keys: readonly string[],
  bounds: AxisBounds = [0, Number.POSITIVE_INFINITY],
): [number, number] {
  const values: number[] = [];
  for (const sample of samples)
    for (const key of keys) {
      const value = sample[key];
      if (typeof value === 'number' && Number.isFinite(value)) values.push(value);
    }
  const [floor, ceiling] = bounds;
  if (values.length === 0) return [floor, Number.isFinite(ceiling) ? ceiling : floor + 1];
  const low = Math.min(...values);
  const high = Math.max(...values);
  // A flat line gets a band around it; otherwise a tenth of the span on each side.
  const span = high > low ? high - low : Math.max(Math.abs(high) * 0.2, 1e-9) || 1;
  const pad = high > low ? span * 0.1 : span / 2;
  const step = niceStep(span + 2 * pad);
  const lower = Math.max(floor, Math.floor((low - pad) / step) * step);
  const upper = Math.min(ceiling, Math.ceil((high + pad) / step) * step);
  return upper > lower ? [lower, upper] : [lower, lower + step];
}
