/**
 * Billing's settings, read through this one file (billing contract "panel-settings"): from the
 * environment with defaults until the lead points it at features/panel-settings' `billingSettings`.
 */
import type { FastifyInstance } from 'fastify';

export interface BillingSettings {
  currency: string;
  manualInstructions: string;
  seller: { name: string; address: string[]; taxNumber: string | null; email: string | null };
  taxRates: Array<{ country: string; percent: number }>;
  enabledGateways: Array<'manual' | 'stripe' | 'paypal'>;
  dunningDays: number[];
  graceDays: number;
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(/[|\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** `BILLING_TAX_RATES=DE:19,FR:20,*:0`. */
function taxRatesOf(text: string | undefined): BillingSettings['taxRates'] {
  return list(text?.replace(/,/g, '|')).flatMap((pair) => {
    const [country = '', percent = ''] = pair.split(':');
    const value = Number(percent);
    return country && Number.isFinite(value) && value >= 0 && value <= 100
      ? [{ country: country.toUpperCase(), percent: value }]
      : [];
  });
}

function daysOf(text: string | undefined, fallback: number[]): number[] {
  const days = (text ?? '')
    .split(',')
    .map((d) => Number(d.trim()))
    .filter((d) => Number.isInteger(d) && d > 0);
  return days.length ? [...new Set(days)].sort((a, b) => a - b) : fallback;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): BillingSettings {
  const grace = Number(env.BILLING_GRACE_DAYS);
  return {
    currency: (env.BILLING_CURRENCY ?? 'USD').toUpperCase(),
    manualInstructions: env.BILLING_MANUAL_INSTRUCTIONS ?? '',
    seller: {
      name: env.BILLING_SELLER_NAME ?? 'Stackdeck',
      address: list(env.BILLING_SELLER_ADDRESS),
      taxNumber: env.BILLING_SELLER_TAX_NUMBER ?? null,
      email: env.BILLING_SELLER_EMAIL ?? null,
    },
    taxRates: taxRatesOf(env.BILLING_TAX_RATES),
    // Card and PayPal come with features/payment-methods (after the merge).
    enabledGateways: ['manual'],
    dunningDays: daysOf(env.BILLING_DUNNING_DAYS, [1, 3, 5, 7]),
    graceDays: Number.isInteger(grace) && grace > 0 ? grace : 14,
  };
}

/** The panel's billing settings now. */
export function billingSettings(_app: FastifyInstance): Promise<BillingSettings> {
  return Promise.resolve(settingsFromEnv(process.env));
}
