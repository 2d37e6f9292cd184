import type { I18nProvider, TranslationMessages } from 'ra-core';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { en } from './en';
import { type MessageTree, mergeMessages } from './merge';
import type { Translation } from './types';

/** The language selector's choices (spec section 2), each named in its own language. */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'de', name: 'Deutsch' },
  { locale: 'es', name: 'Español' },
  { locale: 'it', name: 'Italiano' },
] as const;

export type LocaleCode = (typeof LOCALES)[number]['locale'];

const english = mergeMessages(englishMessages as unknown as MessageTree, en);

/** Other languages are separate chunks, fetched when chosen: not in the /login bundle. */
const loaders: Record<Exclude<LocaleCode, 'en'>, () => Promise<Translation>> = {
  de: () => import('./de').then((m) => m.de),
  es: () => import('./es').then((m) => m.es),
  it: () => import('./it').then((m) => m.it),
};

export function messagesFor(locale: string): TranslationMessages | Promise<TranslationMessages> {
  const load = loaders[locale as keyof typeof loaders];
  if (!load) return english as TranslationMessages;
  return load().then(
    (translation) => mergeMessages(english, translation as MessageTree) as TranslationMessages,
  );
}

export const i18nProvider: I18nProvider = polyglotI18nProvider(messagesFor, 'en', [...LOCALES], {
  // A key a locale lacks shows the English text rather than the key.
  allowMissing: true,
});
