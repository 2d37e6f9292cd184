/**
 * Integer minor units <-> the decimal strings PayPal speaks ("12.50"), exactly: string and
 * integer arithmetic by the currency's exponent (ISO 4217), never a float.
 */

/** ISO 4217 currencies whose minor unit is not the hundredth. */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

const CURRENCY = /^[A-Z]{3}$/;

/** Digits after the decimal point of `currency`'s major unit (JPY 0, USD 2, BHD 3). */
export function currencyExponent(currency: string): number {
  const code = currency.toUpperCase();
  if (!CURRENCY.test(code)) throw new RangeError(`Not a currency code: ${currency}`);
  return EXPONENTS[code] ?? 2;
}

/** 1250 USD -> "12.50"; 1250 JPY -> "1250"; 1250 BHD -> "1.250"; -5 USD -> "-0.05". */
export function minorToDecimal(amountMinor: number, currency: string): string {
  if (!Number.isSafeInteger(amountMinor))
    throw new RangeError(`Not an amount in minor units: ${amountMinor}`);
  const exponent = currencyExponent(currency);
  const sign = amountMinor < 0 ? '-' : '';
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * "12.5" USD -> 1250; "1250" JPY -> 1250; "1.25" BHD -> 1250. Refuses more decimals than the
 * currency has ("1.005" USD) and anything that is not a plain decimal number.
 */
export function decimalToMinor(value: string, currency: string): number {
  const exponent = currencyExponent(currency);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new RangeError(`Not a decimal amount: ${value}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  if (fraction.length > exponent)
    throw new RangeError(`${value} has more decimals than ${currency.toUpperCase()} allows`);
  const minor = Number(`${whole}${fraction.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Amount too large: ${value}`);
  return sign === '-' && minor !== 0 ? -minor : minor;
}
