import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, cronProblem, dueSlots, nextSlot } from '../../server/jobs/cron';
import { backoffMs } from '../../server/jobs/envelope';

const at = (text: string) => Date.parse(text);
const iso = (slots: number[]) => slots.map((s) => new Date(s).toISOString());

/** All the slots between two times, catching up on every one (a day or two of a daily cron). */
function slotsBetween(cron: string, zone: string, from: string, to: string): string[] {
  const out: number[] = [];
  for (
    let t = nextSlot(cron, zone, at(from));
    t !== null && t <= at(to);
    t = nextSlot(cron, zone, t)
  )
    out.push(t);
  return iso(out);
}

describe('schedule slots (croner)', () => {
  it('runs 0 9 * * * at 09:00 in Lisbon on both sides of the spring DST change', () => {
    // Portugal moves from WET (UTC+0) to WEST (UTC+1) at 01:00 on 30 March 2025.
    expect(
      slotsBetween('0 9 * * *', 'Europe/Lisbon', '2025-03-28T12:00:00Z', '2025-04-01T00:00:00Z'),
    ).toEqual(['2025-03-29T09:00:00.000Z', '2025-03-30T08:00:00.000Z', '2025-03-31T08:00:00.000Z']);
    // And back at 02:00 on 26 October 2025.
    expect(
      slotsBetween('0 9 * * *', 'Europe/Lisbon', '2025-10-25T00:00:00Z', '2025-10-27T23:00:00Z'),
    ).toEqual(['2025-10-25T08:00:00.000Z', '2025-10-26T09:00:00.000Z', '2025-10-27T09:00:00.000Z']);
  });

  it('runs a time the change skips or repeats once that day', () => {
    // 01:30 does not exist on 30 March in Lisbon (01:00 -> 02:00), and is lived twice on 26 October.
    const spring = slotsBetween(
      '30 1 * * *',
      'Europe/Lisbon',
      '2025-03-29T12:00:00Z',
      '2025-03-30T23:59:00Z',
    );
    expect(spring).toHaveLength(1);
    const autumn = slotsBetween(
      '30 1 * * *',
      'Europe/Lisbon',
      '2025-10-25T12:00:00Z',
      '2025-10-26T23:59:00Z',
    );
    expect(autumn).toHaveLength(1);
    expect(autumn[0]).toMatch(/^2025-10-26T0[01]:30:00.000Z$/);
  });

  it('is the zone of the schedule, not the machine', () => {
    expect(iso([nextSlot('0 9 * * *', 'Asia/Tokyo', at('2025-06-01T00:00:00Z'))!])).toEqual([
      '2025-06-02T00:00:00.000Z',
    ]);
    expect(iso([nextSlot('0 9 * * *', 'UTC', at('2025-06-01T00:00:00Z'))!])).toEqual([
      '2025-06-01T09:00:00.000Z',
    ]);
  });

  it('takes six fields with seconds first', () => {
    expect(
      iso(
        dueSlots('*/10 * * * * *', 'UTC', at('2025-01-01T00:00:00Z'), at('2025-01-01T00:00:35Z')),
      ),
    ).toEqual(['2025-01-01T00:00:10.000Z', '2025-01-01T00:00:20.000Z', '2025-01-01T00:00:30.000Z']);
  });
});

describe('due slots: the bounded catch-up', () => {
  it('never repeats the last slot taken, and runs one that is exactly due', () => {
    const last = at('2025-01-01T10:00:00Z');
    expect(dueSlots('* * * * *', 'UTC', last, last)).toEqual([]);
    expect(iso(dueSlots('* * * * *', 'UTC', last, last + 60_000))).toEqual([
      '2025-01-01T10:01:00.000Z',
    ]);
  });

  it('runs every slot missed by less than a minute (a late tick loses none)', () => {
    const last = at('2025-01-01T10:00:00Z');
    expect(dueSlots('* * * * * *', 'UTC', last, last + 5_500)).toHaveLength(5);
    expect(CATCH_UP_MS).toBe(60_000);
  });

  it('runs the latest slot once for a panel that was away (a day of every-minute slots)', () => {
    const last = at('2025-01-01T10:00:00Z');
    expect(iso(dueSlots('0 * * * *', 'UTC', last, at('2025-01-02T10:30:00Z')))).toEqual([
      '2025-01-02T10:00:00.000Z',
    ]);
    // Slots of the last minute all run, the older ones are dropped.
    const everyTen = dueSlots('*/10 * * * * *', 'UTC', last, at('2025-01-02T10:30:05Z'));
    expect(iso(everyTen)).toEqual([
      '2025-01-02T10:29:10.000Z',
      '2025-01-02T10:29:20.000Z',
      '2025-01-02T10:29:30.000Z',
      '2025-01-02T10:29:40.000Z',
      '2025-01-02T10:29:50.000Z',
      '2025-01-02T10:30:00.000Z',
    ]);
  });

  it('refuses a bad expression or zone in words', () => {
    expect(cronProblem('0 9 * * *', 'Europe/Lisbon')).toBeNull();
    expect(cronProblem('0 9 * * *', 'Europe/Atlantis')).toBe('Unknown time zone "Europe/Atlantis"');
    expect(cronProblem('0 25 * * *', 'UTC')).not.toBeNull();
    expect(cronProblem('every day', 'UTC')).not.toBeNull();
  });
});

describe('retry backoff', () => {
  it('doubles from the base, with up to as much again at random', () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const base = 10_000 * 2 ** (attempt - 1);
      for (let i = 0; i < 20; i++) {
        const wait = backoffMs({ backoffSeconds: 10 }, attempt);
        expect(wait).toBeGreaterThanOrEqual(base);
        expect(wait).toBeLessThanOrEqual(2 * base);
      }
    }
  });
});
