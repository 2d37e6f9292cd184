/**
 * The time axis of the statistics charts: ticks on round local times, labelled to fit the
 * span shown (hours over a day, dates over a month), never the same label twice.
 */
const HOUR = 3600;
const DAY = 24 * HOUR;
/** Up to this span the axis counts hours; beyond it, days. */
const HOURLY_SPAN = 26 * HOUR;
const HOUR_STEPS = [1, 2, 3, 4, 6, 12];
const DAY_STEPS = [1, 2, 3, 5, 7, 14];

export interface TimeAxis {
  /** Tick positions, in seconds since the epoch. */
  ticks: number[];
  format: (at: number) => string;
}

const hourLabel = (at: number) =>
  new Date(at * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
const dateLabel = (at: number) =>
  new Date(at * 1000).toLocaleDateString([], { month: 'short', day: 'numeric' });

/** The first local hour (a multiple of `step` hours) at or after `from`. */
function firstHour(from: number, step: number): Date {
  const date = new Date(from * 1000);
  if (date.getMinutes() || date.getSeconds() || date.getMilliseconds()) {
    date.setHours(date.getHours() + 1, 0, 0, 0);
  }
  while (date.getHours() % step !== 0) date.setHours(date.getHours() + 1, 0, 0, 0);
  return date;
}

function firstMidnight(from: number): Date {
  const date = new Date(from * 1000);
  if (date.getHours() || date.getMinutes() || date.getSeconds() || date.getMilliseconds()) {
    date.setDate(date.getDate() + 1);
    date.setHours(0, 0, 0, 0);
  }
  return date;
}

/** Ticks between `from` and `to` (seconds), at most `maxTicks` of them. */
export function timeAxis(from: number, to: number, maxTicks = 8): TimeAxis {
  const span = Math.max(0, to - from);
  if (span <= HOURLY_SPAN) {
    const step =
      HOUR_STEPS.find((hours) => span / (hours * HOUR) <= maxTicks) ?? HOUR_STEPS.at(-1)!;
    const ticks: number[] = [];
    for (let at = firstHour(from, step); at.getTime() / 1000 <= to;) {
      ticks.push(at.getTime() / 1000);
      at = new Date(at);
      at.setHours(at.getHours() + step);
    }
    // Over a day the same hour would come back: a tick at midnight names the new day instead.
    const format = (at: number) => {
      const date = new Date(at * 1000);
      return span > DAY - HOUR && date.getHours() === 0 && date.getMinutes() === 0
        ? dateLabel(at)
        : hourLabel(at);
    };
    return distinct(ticks, format);
  }
  const step = DAY_STEPS.find((days) => span / (days * DAY) <= maxTicks) ?? DAY_STEPS.at(-1)!;
  const ticks: number[] = [];
  for (let at = firstMidnight(from); at.getTime() / 1000 <= to;) {
    ticks.push(at.getTime() / 1000);
    at = new Date(at);
    at.setDate(at.getDate() + step);
  }
  return distinct(ticks, dateLabel);
}

/** A label shown twice (a clock time a day apart) keeps only its later tick. */
function distinct(ticks: number[], format: (at: number) => string): TimeAxis {
  const seen = new Set<string>();
  const kept: number[] = [];
  for (const at of [...ticks].reverse()) {
    const label = format(at);
    if (seen.has(label)) continue;
    seen.add(label);
    kept.unshift(at);
  }
  return { ticks: kept, format };
}
