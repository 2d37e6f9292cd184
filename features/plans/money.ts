/**
 * Money as the panel keeps it: integer minor units with an ISO 4217 currency, never a float
 * (DESIGN.md "Money"). Pure, for the panel, the pages and billing alike.
 */
import { z } from 'zod';
import { minorToDecimal } from '../payments/api';

/** The currencies a price may be in, with their exponent (digits after the point). */
export const CURRENCY_EXPONENTS = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  NZD: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  PLN: 2,
  CZK: 2,
  INR: 2,
  BRL: 2,
  MXN: 2,
  ZAR: 2,
  SGD: 2,
  HKD: 2,
  JPY: 0,
  KRW: 0,
} as const;
export type Currency = keyof typeof CURRENCY_EXPONENTS;
export const CURRENCIES = Object.keys(CURRENCY_EXPONENTS) as [Currency, ...Currency[]];

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
