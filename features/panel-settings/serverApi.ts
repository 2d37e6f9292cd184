/**
 * What panel settings offer the panel's other features (billing, payment methods): the billing
 * settings in force and the opened API credentials. Nothing else here is for import.
 */
import type { FastifyInstance } from 'fastify';
import { openCredential } from './serverCredentials';
import { readSettings } from './serverSettings';

export interface BillingSettings {
  /** 'USD' default. */
  currency: string;
  /** Bank transfer text ('' = not set). */
  manualInstructions: string;
  seller: { name: string; address: string[]; taxNumber: string | null; email: string | null };
  /** ISO 3166 alpha-2 -> percent (e.g. 21), '*' for any. */
  taxRates: Array<{ country: string; percent: number }>;
  enabledGateways: Array<'manual' | 'stripe' | 'paypal'>;
  /** Default [1, 3, 5, 7]. */
  dunningDays: number[];
  /** past_due -> unpaid after, default 14. */
  graceDays: number;
}

/** The billing settings in force (the defaults where an admin set none). */
export async function billingSettings(app: FastifyInstance): Promise<BillingSettings> {
  const { settings: s } = await readSettings(app.db);
  return {
    currency: s.currency,
    manualInstructions: s.manual_instructions,
    seller: {
      name: s.seller_name,
      address: [...s.seller_address],
      taxNumber: s.seller_tax_number || null,
      email: s.seller_email || null,
    },
    taxRates: s.tax_rates.map((r) => ({ country: r.country, percent: r.percent })),
    enabledGateways: [...s.enabled_gateways],
    dunningDays: [...s.dunning_days],
    graceDays: s.grace_days,
  };
}

/**
 * An API credential's opened fields (stripe: secretKey, publishableKey, webhookSecret, apiBase?;
 * paypal: clientId, clientSecret, webhookId, apiBase (live/sandbox as their addresses); vultr:
 * apiKey, apiBase?), or null when not set.
 */
export function apiCredential(
  app: FastifyInstance,
  provider: 'stripe' | 'paypal' | 'vultr',
): Promise<Record<string, string> | null> {
  return openCredential(app, provider);
}

/** Backup storage's price: minor units of `currency` per GB-month (0: not charged). */
export async function backupStoragePrice(
  app: FastifyInstance,
): Promise<{ currency: string; perGbMonthMinor: number }> {
  const { settings } = await readSettings(app.db);
  return { currency: settings.currency, perGbMonthMinor: settings.backup_price_per_gb };
}
