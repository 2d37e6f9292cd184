import { describe, expect, it } from 'vitest';
import { fieldLabel } from '../../src/generic/labels';
import { timeZoneEntries, utcOffset, withCurrentZone } from '../../src/generic/timeZones';

describe('fieldLabel', () => {
  it('reads the spec spellings as words', () => {
    expect(fieldLabel('Addr_1')).toBe('Address line 1');
    expect(fieldLabel('TaxNum')).toBe('Tax number');
    expect(fieldLabel('created_at')).toBe('Time');
  });
  it('humanises names it does not know', () => {
    expect(fieldLabel('os_version')).toBe('Os version');
    expect(fieldLabel('webAppType')).toBe('Web app type');
    expect(fieldLabel('rate_limited')).toBe('Rate limited');
  });
});

describe('time zone entries (value/text)', () => {
  const winter = new Date('2026-01-15T12:00:00Z');

  it('gives each zone its UTC offset at the date', () => {
    expect(utcOffset('UTC', winter)).toBe('+00:00');
    expect(utcOffset('Asia/Kolkata', winter)).toBe('+05:30');
    expect(utcOffset('America/New_York', winter)).toBe('-05:00');
    expect(utcOffset('Not/AZone', winter)).toBe('');
  });

  it('sorts by offset, then name, and shows the offset in the text', () => {
    const entries = timeZoneEntries(
      ['Europe/Berlin', 'America/New_York', 'Europe/Amsterdam'],
      winter,
    );
    expect(entries).toEqual([
      { value: 'America/New_York', text: '(UTC-05:00) America/New York' },
      { value: 'Europe/Amsterdam', text: '(UTC+01:00) Europe/Amsterdam' },
      { value: 'Europe/Berlin', text: '(UTC+01:00) Europe/Berlin' },
    ]);
  });

  it('lists the browser zones by default', () => {
    expect(timeZoneEntries().length).toBe(Intl.supportedValuesOf('timeZone').length);
  });

  it('keeps a stored zone the list lacks, so saving does not drop it', () => {
    const entries = [{ value: 'UTC', text: '(UTC+00:00) UTC' }];
    expect(withCurrentZone(entries, 'Asia/Calcutta')[0]).toEqual({
      value: 'Asia/Calcutta',
      text: 'Asia/Calcutta',
    });
    expect(withCurrentZone(entries, 'UTC')).toBe(entries);
  });
});
