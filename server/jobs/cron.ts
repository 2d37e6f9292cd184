import { Cron } from 'croner';

/**
 * The slots of a schedule: croner reads the expression (five fields, or six with seconds
 * first) in the schedule's time zone, so `0 9 * * *` in Europe/Lisbon is 09:00 there in winter
 * and in summer, and a time a DST change skips or repeats runs once.
 */

/** Slots missed by more than this are not caught up one by one (see `dueSlots`). */
export const CATCH_UP_MS = 60_000;
/** At most this many slots of one schedule in one tick (an every-second schedule, caught up). */
export const MAX_SLOTS_A_TICK = 60;

const patterns = new Map<string, Cron>();

/** The parsed expression (cached); throws on a bad expression or zone. */
export function cronOf(expression: string, timezone: string): Cron {
  const cacheKey = `${timezone} ${expression}`;
  let cron = patterns.get(cacheKey);
  if (!cron) {
    // No callback: a pattern only, no timer of croner's own.
    cron = new Cron(expression, { timezone, paused: true, mode: '5-or-6-parts' });
    if (patterns.size > 5000) patterns.clear();
    patterns.set(cacheKey, cron);
  }
  return cron;
}

/** Why an expression or zone is refused, or null when both are good. */
export function cronProblem(expression: string, timezone: string): string | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    return `Unknown time zone "${timezone}"`;
  }
  try {
    if (!cronOf(expression, timezone).nextRun(new Date())) return 'It never runs';
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The first slot strictly after `after` (epoch ms), or null. */
export function nextSlot(expression: string, timezone: string, after: number): number | null {
  return cronOf(expression, timezone).nextRun(new Date(after))?.getTime() ?? null;
}

/**
 * The slots due now, after `after` (the last slot taken) and up to `now`, all epoch ms. Slots
 * less than CATCH_UP_MS old all run, so a tick a few seconds late loses none; older ones are
 * dropped, but when nothing newer is due the latest of them runs once: a panel that was down
 * for a day runs an every-minute job once, not 1,440 times.
 */
export function dueSlots(expression: string, timezone: string, after: number, now: number) {
  const cron = cronOf(expression, timezone);
  const recent: number[] = [];
  let latestOld: number | null = null;
  // Skip straight to the window when far behind: walking a day of seconds would be slow.
  let from = after;
  if (now - after > CATCH_UP_MS) {
    const window = now - CATCH_UP_MS;
    const old = cron.previousRuns(1, new Date(window + 1))[0]?.getTime();
    if (old !== undefined && old > after) latestOld = old;
    from = Math.max(after, window);
  }
  for (let at = cron.nextRun(new Date(from)); at && at.getTime() <= now;) {
    recent.push(at.getTime());
    if (recent.length > MAX_SLOTS_A_TICK) recent.shift();
    at = cron.nextRun(at);
  }
  if (recent.length === 0 && latestOld !== null) return [latestOld];
  return recent;
}
