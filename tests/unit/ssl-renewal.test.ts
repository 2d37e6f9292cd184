import { describe, expect, it } from 'vitest';
import { RENEW_CRON, nextRenewal, nextRenewalRun } from '../../features/ssl/renewal';

/** When the server's certbot renews a certificate: its cron's runs, in the server's zone. */
describe('the next renewal', () => {
  it('is the cron line the agent writes', () => {
    expect(RENEW_CRON).toBe('17 3,15 * * *');
  });

  it('is the first run within 30 days of the end, on the server’s clock', () => {
    const now = Date.parse('2026-11-27T14:00:00Z');
    // Due 2027-01-30T00:00Z = 01:00 in Berlin: the 03:17 run there, 02:17 UTC.
    expect(nextRenewal('2027-03-01T00:00:00.000Z', 'Europe/Berlin', now).toISOString()).toBe(
      '2027-01-30T02:17:00.000Z',
    );
    // Summer time in New York: due at 08:00 EDT, so the 15:17 EDT run, 19:17 UTC.
    expect(nextRenewal('2027-08-01T12:00:00.000Z', 'America/New_York', now).toISOString()).toBe(
      '2027-07-02T19:17:00.000Z',
    );
  });

  it('is the next run when the certificate is due already; UTC without a known zone', () => {
    const now = Date.parse('2026-11-27T14:00:00Z');
    expect(nextRenewal('2026-12-01T00:00:00.000Z', null, now).toISOString()).toBe(
      '2026-11-27T15:17:00.000Z',
    );
    expect(nextRenewalRun(Date.parse('2026-11-27T15:18:00Z'), 'Not/AZone').toISOString()).toBe(
      '2026-11-28T03:17:00.000Z',
    );
    // Tokyo (UTC+9): 23:00 UTC is 08:00 there, so 15:17 local, 06:17 UTC.
    expect(nextRenewalRun(Date.parse('2026-11-27T23:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-28T06:17:00.000Z',
    );
  });
});
