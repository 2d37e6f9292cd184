/**
 * When Let's Encrypt certificates renew: the server's cron runs `certbot renew` at RENEW_MINUTE
 * past each of RENEW_HOURS, in the server's own time zone (cron's), and certbot renews a
 * certificate at the first run within RENEW_BEFORE_DAYS of its end (its default,
 * renew_before_expiry). The agent writes the cron line from these; the certificate page
 * computes the next renewal from the same. Pure: every program uses it.
 */
export const RENEW_MINUTE = 17;
export const RENEW_HOURS = [3, 15] as const;
export const RENEW_BEFORE_DAYS = 30;

/** The cron schedule of `certbot renew` (/etc/cron.d/stackdeck-certbot). */
export const RENEW_CRON = `${RENEW_MINUTE} ${RENEW_HOURS.join(',')} * * *`;

const DAY_MS = 86_400_000;

/** The zone's offset from UTC at `at`, in ms (what a wall clock there shows minus UTC). */
function offsetMs(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return wall - Math.floor(at / 1000) * 1000;
}

const knownZone = (timeZone: string | null | undefined): string => {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
};

/** The first run of the renewal's cron at or after `from` (epoch ms), in the server's zone. */
export function nextRenewalRun(from: number, timeZone?: string | null): Date {
  const zone = knownZone(timeZone);
  const local = from + offsetMs(zone, from);
  const day = Math.floor(local / DAY_MS) * DAY_MS;
  for (let d = 0; d < 3; d++) {
    for (const hour of RENEW_HOURS) {
      const wall = day + d * DAY_MS + hour * 3_600_000 + RENEW_MINUTE * 60_000;
      // The wall-clock time there, back to UTC with the offset in force then.
      const at = wall - offsetMs(zone, wall - offsetMs(zone, wall));
      if (at >= from) return new Date(at);
    }
  }
  return new Date(from);
}

/**
 * When certbot renews a certificate ending at `notAfter`: the first cron run once it is within
 * RENEW_BEFORE_DAYS of its end (the next run when that is already the case).
 */
export function nextRenewal(
  notAfter: string,
  timeZone: string | null | undefined,
  now: number,
): Date {
  const due = Date.parse(notAfter) - RENEW_BEFORE_DAYS * DAY_MS;
  return nextRenewalRun(Math.max(now, due), timeZone);
}
