/**
 * Money as the panel keeps it: integer minor units with an ISO 4217 currency, never a float
 * (DESIGN.md "Money"). Pure, for the panel, the pages and billing alike.
 */
import { z } from 'zod';
import { currencyExponent, minorToDecimal } from '../payments/api';

/**
 * The currencies a price may be in. Their exponents (digits after the point) are payments'
 * (ISO 4217, one list): this is only which of them the panel sells in.
 */
const SOLD_IN = [
  'USD',
  'EUR',
  'GBP',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'INR',
  'BRL',
  'MXN',
  'ZAR',
  'SGD',
  'HKD',
  'JPY',
  'KRW',
] as const;
export type Currency = (typeof SOLD_IN)[number];
export const CURRENCIES = [...SOLD_IN] as [Currency, ...Currency[]];

/** Each currency's exponent, as payments' exact arithmetic has it (JPY 0, USD 2). */
export const CURRENCY_EXPONENTS = Object.fromEntries(
  CURRENCIES.map((code) => [code, currencyExponent(code)]),
) as Readonly<Record<Currency, number>>;

export const currency = z.enum(CURRENCIES, 'A currency the panel knows (USD, EUR, GBP...)');

/** The largest amount a price or a fixed discount may be: 1,000,000.00 of a two-digit currency. */
export const MAX_MINOR = 100_000_000;

/** An amount in minor units (1200 is 12.00 USD). */
export const minorUnits = z
  .number('An amount in minor units (cents): 12.00 is 1200')
  .int('Whole minor units (cents): 12.00 is 1200')
  .min(0, 'Not below zero')
  .max(MAX_MINOR, `At most ${MAX_MINOR}`);

/** 1200 USD -> "12.00", 1200 JPY -> "1200": digits only, by the currency's exponent. */
export const formatMinor = (amount: number, code: string): string =>
  minorToDecimal(Math.trunc(amount), code);

/** "12.00 USD". */
export const formatMoney = (amount: number, code: string) => `${formatMinor(amount, code)} ${code}`;

/** Currency codes as their own labels in a form's choice ("USD", not "Usd"). */
export const CURRENCY_LABELS: Record<string, string> = Object.fromEntries(
  CURRENCIES.map((code) => [code, code]),
);
