/**
 * What payments offers every program (the browser too): exact money arithmetic by the
 * currency's exponent. The rails themselves are the panel's, in serverApi.ts.
 */
export { currencyExponent, decimalToMinor, minorToDecimal } from './money';
