/**
 * What panel settings offer every program (the pages, the panel, tests): the one schema the
 * run-time settings are validated by, and the API credentials' providers with their fields.
 * Zod only: the reads that need the database are in serverApi.ts.
 */
import { z } from 'zod';
import { currency, minorUnits } from '../plans/api';

export const GATEWAYS = ['manual', 'stripe', 'paypal'] as const;
export type EnabledGateway = (typeof GATEWAYS)[number];

/**
 * ISO 3166 alpha-2 countries as the runtime's ICU knows them (the panel's and the browser's):
 * an unknown code has no name; the groupings ICU also names are not countries.
 */
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);
export const isCountryCode = (code: string) =>
  /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && REGION_NAMES.of(code) !== undefined;

/** Whole hundredths of a percent at most (7.7 %, 21 %, 8.875 % is refused). */
const hundredths = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9;

export const taxRate = z.object({
  country: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine(
      (v) => v === '*' || isCountryCode(v),
      'A country code (ISO 3166 alpha-2: DE, US) or * for any other country',
    ),
  percent: z
    .number('A percentage, e.g. 21')
    .min(0, 'Not below 0 %')
    .max(100, 'At most 100 %')
    .refine(hundredths, 'At most two decimals (7.75)'),
});
export type TaxRate = z.output<typeof taxRate>;

/** A reminder schedule: days after the due date, each later than the one before. */
const dunningDays = z
  .array(
    z
      .number('Days after the due date')
      .int('Whole days')
      .min(1, 'At least 1 day')
      .max(60, 'At most 60 days'),
  )
  .max(10, 'At most 10 reminders')
  .refine(
    (days) => days.every((d, i) => i === 0 || d > days[i - 1]!),
    'Each reminder later than the one before (1, 3, 5, 7)',
  );

/**
 * The panel's run-time settings, as an admin edits them (`PATCH admin/module-settings` takes
 * any part of it). Amounts are integer minor units of `currency`.
 */
const settingFields = {
  currency,
  /** Bank transfer instructions the manual gateway shows on an invoice; empty: not set. */
  manual_instructions: z.string().trim().max(2000, 'At most 2000 characters'),
  seller_name: z.string().trim().max(200, 'At most 200 characters'),
  seller_address: z
    .array(z.string().trim().min(1, 'An empty line').max(200, 'At most 200 characters a line'))
    .max(8, 'At most 8 lines'),
  seller_tax_number: z.string().trim().max(64, 'At most 64 characters').nullable(),
  seller_email: z.email('An email address').max(254, 'At most 254 characters').nullable(),
  tax_rates: z
    .array(taxRate)
    .max(300, 'At most 300 rates')
    .refine(
      (rates) => new Set(rates.map((r) => r.country)).size === rates.length,
      'A country is named twice',
    ),
  enabled_gateways: z
    .array(z.enum(GATEWAYS, 'manual, stripe or paypal'))
    .min(1, 'At least one way to pay')
    .refine((g) => new Set(g).size === g.length, 'A gateway is named twice'),
  dunning_days: dunningDays,
  grace_days: z.number('Days').int('Whole days').min(0, 'Not below 0').max(90, 'At most 90 days'),
  /** Backup storage: minor units of `currency` per GB-month. */
  backup_price_per_gb: minorUnits,
};
export const panelSettingsSchema = z.object(settingFields);
export type PanelSettings = z.output<typeof panelSettingsSchema>;

/** The settings when no admin changed any. */
export const DEFAULT_SETTINGS: PanelSettings = {
  currency: 'USD',
  manual_instructions: '',
  seller_name: '',
  seller_address: [],
  seller_tax_number: null,
  seller_email: null,
  tax_rates: [],
  // Card and PayPal also need their keys (/admin/api): ticked, they are on once the keys are there.
  enabled_gateways: ['manual', 'stripe', 'paypal'],
  dunning_days: [1, 3, 5, 7],
  grace_days: 14,
  backup_price_per_gb: 0,
};

/** What PATCH takes: any of the fields (no defaults: a field left out is left as it is). */
export const panelSettingsPatch = z.object(settingFields).partial();
export type PanelSettingsPatch = z.output<typeof panelSettingsPatch>;

export const SETTING_KEYS = Object.keys(panelSettingsSchema.shape) as (keyof PanelSettings)[];

/** What the page reads: the settings, who changed them last, and mail-out (env, read-only). */
export const panelSettingsView = z.object({
  id: z.literal('panel'),
  settings: panelSettingsSchema,
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
  mail: z.object({
    /** SMTP_URL is set (its value, which holds a password, never leaves the panel). */
    smtp_configured: z.boolean(),
    from: z.string(),
  }),
});
export type PanelSettingsView = z.output<typeof panelSettingsView>;

// --- API credentials -------------------------------------------------------------------------

export const PROVIDERS = ['stripe', 'paypal', 'vultr'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A field of a provider's credential: secret ones are sealed and never shown again. */
export interface CredentialField {
  name: string;
  label: string;
  secret: boolean;
  optional: boolean;
  help: string;
}

export const PAYPAL_API_BASES = {
  live: 'https://api-m.paypal.com',
  sandbox: 'https://api-m.sandbox.paypal.com',
} as const;

/** The fields of each provider; the first secret one is the key whose last 4 the list shows. */
export const PROVIDER_FIELDS: Record<Provider, readonly CredentialField[]> = {
  stripe: [
    {
      name: 'secretKey',
      label: 'Secret key',
      secret: true,
      optional: false,
      help: 'sk_live_… or sk_test_… (a restricted rk_ key works too)',
    },
    {
      name: 'publishableKey',
      label: 'Publishable key',
      secret: false,
      optional: false,
      help: 'pk_live_… or pk_test_…: the browser uses it',
    },
    {
      name: 'webhookSecret',
      label: 'Webhook signing secret',
      secret: true,
      optional: false,
      help: 'whsec_… of the endpoint that sends payment events to the panel',
    },
    {
      name: 'apiBase',
      label: 'API address',
      secret: false,
      optional: true,
      help: 'Empty: https://api.stripe.com',
    },
  ],
  paypal: [
    {
      name: 'clientId',
      label: 'Client id',
      secret: false,
      optional: false,
      help: 'The REST app’s client id',
    },
    {
      name: 'clientSecret',
      label: 'Client secret',
      secret: true,
      optional: false,
      help: 'The REST app’s secret',
    },
    {
      name: 'webhookId',
      label: 'Webhook id',
      secret: false,
      optional: false,
      help: 'The id PayPal gave the panel’s webhook',
    },
    {
      name: 'apiBase',
      label: 'Environment',
      secret: false,
      optional: false,
      help: 'live, sandbox, or an https address',
    },
  ],
  vultr: [
    { name: 'apiKey', label: 'API key', secret: true, optional: false, help: 'Account → API' },
    {
      name: 'apiBase',
      label: 'API address',
      secret: false,
      optional: true,
      help: 'Empty: https://api.vultr.com/v2',
    },
  ],
};

const key = (label: string, pattern: RegExp, what: string) =>
  z
    .string(`${label} is needed`)
    .trim()
    .min(1, `${label} is needed`)
    .max(512, 'At most 512 characters')
    .regex(pattern, what);

const token = (label: string) =>
  key(label, /^[\x21-\x7e]+$/, 'Letters, digits and signs, no spaces');

/** An http(s) address (http for a local test double of the provider). */
export function isApiAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Empty or an address; the panel stores it without trailing slashes. */
const optionalAddress = z
  .string()
  .trim()
  .max(500, 'At most 500 characters')
  .refine((v) => v === '' || isApiAddress(v), 'An http(s) address, or empty')
  .optional();

export const stripeCredential = z.object({
  provider: z.literal('stripe'),
  secretKey: key(
    'The secret key',
    /^(sk|rk)_(live|test)_[A-Za-z0-9]+$/,
    'sk_live_…, sk_test_… or rk_…',
  ),
  publishableKey: key(
    'The publishable key',
    /^pk_(live|test)_[A-Za-z0-9]+$/,
    'pk_live_… or pk_test_…',
  ),
  webhookSecret: key('The webhook secret', /^whsec_[A-Za-z0-9]+$/, 'whsec_…'),
  apiBase: optionalAddress,
});

export const paypalCredential = z.object({
  provider: z.literal('paypal'),
  clientId: token('The client id'),
  clientSecret: token('The client secret'),
  webhookId: token('The webhook id'),
  apiBase: z
    .string('live, sandbox, or an http(s) address')
    .trim()
    .max(500, 'At most 500 characters')
    .refine(
      (v) => v === 'live' || v === 'sandbox' || isApiAddress(v),
      'live, sandbox, or an http(s) address',
    ),
});

export const vultrCredential = z.object({
  provider: z.literal('vultr'),
  apiKey: token('The API key'),
  apiBase: optionalAddress,
});

const credentialName = z.string('A name').trim().min(1, 'A name').max(64, 'At most 64 characters');

/**
 * `POST admin/api-credentials` and `PUT admin/api-credentials/{id}`: a name, the provider and
 * every field of that provider's credential (a replacement sends them all again).
 */
export const apiCredentialInput = z.discriminatedUnion(
  'provider',
  [
    stripeCredential.extend({ name: credentialName }),
    paypalCredential.extend({ name: credentialName }),
    vultrCredential.extend({ name: credentialName }),
  ],
  'stripe, paypal or vultr',
);
export type ApiCredentialInput = z.output<typeof apiCredentialInput>;

/** A credential as every answer shows it: nothing secret, the key's last 4. */
export const apiCredentialSchema = z.object({
  id: z.number().int(),
  provider: z.enum(PROVIDERS),
  name: z.string(),
  /** The fields that are not secret (a publishable key, a client id, the API address). */
  public_fields: z.record(z.string(), z.string()),
  /** The last 4 characters of the provider's key. */
  key_last4: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ApiCredential = z.output<typeof apiCredentialSchema>;

/** The last 4 characters of a key, for recognising it; the rest never leaves the panel. */
export const last4 = (value: string) => value.slice(-4);
