import { describe, expect, it } from 'vitest';
import { timeAxis } from '../../features/serverstats/timeTicks';

/** Issue 8: the statistics axis shows hours over a day, dates over 30 days, no label twice. */
const NOW = Math.floor(Date.parse('2025-03-20T15:07:00Z') / 1000);
const samples = (span: number, every: number) => {
  const out: number[] = [];
  for (let at = NOW - span; at <= NOW; at += every) out.push(at);
  return out;
};
const labels = (points: number[]) => {
  const axis = timeAxis(points[0]!, points.at(-1)!);
  return axis.ticks.map(axis.format);
};

describe('statistics time axis', () => {
  it('30 days of half-hour samples: a few dates, each once', () => {
    const shown = labels(samples(30 * 86400, 1800));
    expect(shown.length).toBeGreaterThanOrEqual(4);
    expect(shown.length).toBeLessThanOrEqual(8);
    expect(timeAxis(NOW - 30 * 86400, NOW, 6).ticks.length).toBeLessThanOrEqual(6);
    expect(new Set(shown).size).toBe(shown.length);
    for (const label of shown) expect(label).not.toMatch(/\d{1,2}:\d{2}/);
  });

  it('a day of minute samples: clock times, each once', () => {
    const shown = labels(samples(86400, 60));
    expect(shown.length).toBeGreaterThanOrEqual(4);
    expect(shown.length).toBeLessThanOrEqual(9);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.filter((label) => /\d{1,2}:\d{2}/.test(label)).length).toBeGreaterThan(3);
  });

  it('a month range holding only a few hours of samples counts hours', () => {
    const shown = labels(samples(5 * 3600, 1800));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.every((label) => /\d{1,2}:\d{2}/.test(label))).toBe(true);
  });

  it('ticks stay inside the samples and go forward', () => {
    const points = samples(30 * 86400, 1800);
    const { ticks } = timeAxis(points[0]!, points.at(-1)!);
    expect(ticks.every((at, i) => i === 0 || at > ticks[i - 1]!)).toBe(true);
    expect(ticks[0]!).toBeGreaterThanOrEqual(points[0]!);
    expect(ticks.at(-1)!).toBeLessThanOrEqual(points.at(-1)!);
  });

  it('no samples: no ticks', () => {
    expect(timeAxis(0, 0).ticks.length).toBeLessThanOrEqual(1);
  });
});
