import { useLocaleState, useTranslate } from 'ra-core';
import { useCallback } from 'react';
import type { LocaleCode } from '../i18n';
import type { MenuLabel } from './menuTypes';

const isLocale = (locale: string, label: Record<LocaleCode, string>): locale is LocaleCode =>
  Object.hasOwn(label, locale);

/**
 * The words of a menu entry in the chosen language: the shell's entries name an i18n key, a
 * feature's carry their four languages (its menu.ts), so no feature edits src/i18n for its menu.
 */
export function useMenuLabel(): (label: MenuLabel) => string {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useCallback(
    (label: MenuLabel) => {
      if (typeof label === 'string') return translate(label, { _: label });
      return isLocale(locale, label) ? label[locale] : label.en;
    },
    [translate, locale],
  );
}
