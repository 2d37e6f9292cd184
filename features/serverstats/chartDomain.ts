/**
 * The value axis of a stats chart, fitted to the samples of the range shown: a CPU at 2 % is
 * drawn over 0–3 %, not flat along the bottom of 0–100 %; the axis ends on round ticks. Pure,
 * so a unit test holds it.
 */

/** Where the axis may never go (a percentage stays within 0–100, a size above 0). */
export type AxisBounds = readonly [number, number];

/** How many steps the axis is cut into, about. */
const STEPS = 4;

/** A round step near `raw`: 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = [1, 2, 2.5, 5, 10].find((f) => f * power >= raw * (1 - 1e-9))!;
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
  const pad = high > low ? (high - low) * 0.1 : Math.max(Math.abs(high) * 0.1, 1e-9);
  const from = Math.max(floor, low - pad);
  const to = Math.min(ceiling, high + pad);
  const step = niceStep((to - from) / STEPS);
  const lower = Math.max(floor, Math.floor(from / step) * step);
  const upper = Math.min(ceiling, Math.ceil(to / step) * step);
  return upper > lower ? [lower, upper] : [lower, lower + step];
}

/** Round ticks over a fitted domain, its ends included. */
export function axisTicks([lower, upper]: readonly [number, number]): number[] {
  const step = niceStep((upper - lower) / STEPS);
  const ticks: number[] = [];
  for (let tick = Math.ceil(lower / step) * step; tick <= upper + step * 1e-9; tick += step)
    ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}
