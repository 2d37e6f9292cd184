import { describe, expect, it } from 'vitest';
import { LOCALES, i18nProvider, messagesFor } from '../../src/i18n';
import { de } from '../../src/i18n/de';
import { en } from '../../src/i18n/en';
import { es } from '../../src/i18n/es';
import { it as italian } from '../../src/i18n/it';
import { type MessageTree, mergeMessages } from '../../src/i18n/merge';

/** Every dotted key of a message tree. */
function keys(tree: MessageTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('shell translations', () => {
  it('lists English, German, Spanish and Italian', () => {
    expect(LOCALES.map((entry) => entry.locale)).toEqual(['en', 'de', 'es', 'it']);
  });

  it('deep-merges a locale over English, keeping what it leaves out', () => {
    const base = { a: { b: 'B', c: 'C' }, d: 'D' };
    expect(mergeMessages(base, { a: { b: 'b2' } })).toEqual({ a: { b: 'b2', c: 'C' }, d: 'D' });
    expect(base.a.b).toBe('B');
  });

  it('translates only keys English has, and most of them', () => {
    const english = new Set(keys(en));
    for (const [name, locale] of Object.entries({ de, es, italian })) {
      const { ra: _ra, ...shell } = locale;
      const own = keys(shell as MessageTree);
      expect(
        own.filter((key) => !english.has(key)),
        name,
      ).toEqual([]);
      expect(own.length / english.size, name).toBeGreaterThan(0.8);
    }
  });

  it('switches the shell strings and falls back to English and react-admin', async () => {
    await i18nProvider.changeLocale('de');
    expect(i18nProvider.translate('shell.header.logout')).toBe('Abmelden');
    expect(i18nProvider.translate('ra.action.close')).toBe('Schließen');
    // Not translated in German (the brand): the English text, not the key.
    expect(i18nProvider.translate('shell.brand')).toBe('Stackdeck');
    expect(i18nProvider.translate('ra.navigation.skip_nav')).toBe('Skip to content');
    await i18nProvider.changeLocale('en');
    expect(i18nProvider.translate('shell.header.logout')).toBe('Log out');
  });

  it('keeps English synchronous and other locales on demand', () => {
    expect(messagesFor('en')).not.toBeInstanceOf(Promise);
    expect(messagesFor('it')).toBeInstanceOf(Promise);
  });
});
