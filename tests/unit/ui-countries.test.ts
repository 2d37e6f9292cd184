import { describe, expect, it } from 'vitest';
import { profileFields } from '../../resources/user-profile';
import { COUNTRIES, countryByCode, flagEmoji } from '../../src/generic/countries';

describe('flagEmoji', () => {
  it('builds the flag from regional-indicator symbols', () => {
    expect(flagEmoji('DE')).toBe('\u{1F1E9}\u{1F1EA}');
    expect(flagEmoji('us')).toBe('\u{1F1FA}\u{1F1F8}');
  });
  it('gives nothing for anything but two letters', () => {
    expect(flagEmoji('')).toBe('');
    expect(flagEmoji('DEU')).toBe('');
    expect(flagEmoji('1A')).toBe('');
  });
});

describe('COUNTRIES', () => {
  it('holds every ISO 3166-1 country once, each with name, code and flag', () => {
    expect(COUNTRIES.length).toBe(249);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const country of COUNTRIES) {
      expect(country.name.length).toBeGreaterThan(1);
      expect(country.flag).toBe(flagEmoji(country.code));
    }
  });

  it('offers only codes the profile schema accepts', () => {
    for (const { code } of COUNTRIES)
      expect(profileFields.shape.Country.safeParse(code).success).toBe(true);
  });

  it('is sorted by name for the select', () => {
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('finds a country by code in any case', () => {
    expect(countryByCode('fr')?.name).toBe('France');
    expect(countryByCode('')).toBeUndefined();
  });
});
