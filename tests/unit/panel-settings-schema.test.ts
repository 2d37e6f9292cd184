import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  apiCredentialInput,
  isCountryCode,
  panelSettingsPatch,
  panelSettingsSchema,
} from '../../features/panel-settings/api';

/** The one schema the panel's settings are validated by, in the panel and in the page alike. */
const problems = (value: unknown) => {
  const parsed = panelSettingsPatch.safeParse(value);
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('panel settings schema', () => {
  it('the defaults are valid settings', () => {
    expect(panelSettingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });

  it('a patch leaves out what it does not change (no defaults filled in)', () => {
    expect(panelSettingsPatch.parse({ grace_days: 3 })).toEqual({ grace_days: 3 });
  });

  it('tax rates: ISO alpha-2 countries (upper-cased) or *, percentages to two decimals', () => {
    expect(
      panelSettingsPatch.parse({
        tax_rates: [
          { country: 'de', percent: 19 },
          { country: 'CH', percent: 7.7 },
          { country: '*', percent: 0 },
        ],
      }).tax_rates,
    ).toEqual([
      { country: 'DE', percent: 19 },
      { country: 'CH', percent: 7.7 },
      { country: '*', percent: 0 },
    ]);
    expect(
      problems({
        tax_rates: [
          { country: 'XX', percent: 5 },
          { country: 'EU', percent: 5 },
          { country: 'FR', percent: -1 },
          { country: 'IT', percent: 22.125 },
        ],
      }),
    ).toMatchObject({
      'tax_rates.0.country': expect.stringContaining('A country code'),
      'tax_rates.1.country': expect.stringContaining('A country code'),
      'tax_rates.2.percent': 'Not below 0 %',
      'tax_rates.3.percent': 'At most two decimals (7.75)',
    });
    expect(
      problems({
        tax_rates: [
          { country: 'DE', percent: 19 },
          { country: 'de', percent: 7 },
        ],
      }),
    ).toEqual({ tax_rates: 'A country is named twice' });
    expect(isCountryCode('US')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
  });

  it('gateways, dunning days, grace days, the storage price', () => {
    expect(problems({ enabled_gateways: [] })).toEqual({
      enabled_gateways: 'At least one way to pay',
    });
    expect(problems({ enabled_gateways: ['manual', 'manual'] })).toEqual({
      enabled_gateways: 'A gateway is named twice',
    });
    expect(problems({ enabled_gateways: ['bitcoin'] })).toHaveProperty('enabled_gateways.0');
    expect(problems({ dunning_days: [1, 1] })).toEqual({
      dunning_days: 'Each reminder later than the one before (1, 3, 5, 7)',
    });
    expect(problems({ dunning_days: [0, 61] })).toEqual({
      'dunning_days.0': 'At least 1 day',
      'dunning_days.1': 'At most 60 days',
    });
    expect(problems({ grace_days: 91 })).toEqual({ grace_days: 'At most 90 days' });
    expect(problems({ backup_price_per_gb: 2.5 })).toHaveProperty('backup_price_per_gb');
    expect(problems({ currency: 'EUR', backup_price_per_gb: 250 })).toEqual({});
  });

  it('the seller: address lines, an email or none', () => {
    expect(problems({ seller_address: ['a', ''] })).toEqual({
      'seller_address.1': 'An empty line',
    });
    expect(problems({ seller_email: 'x' })).toEqual({ seller_email: 'An email address' });
    expect(problems({ seller_email: null, seller_tax_number: null })).toEqual({});
  });
});

describe('API credential input', () => {
  it('each provider its own fields', () => {
    expect(
      apiCredentialInput.safeParse({
        provider: 'stripe',
        name: 'Stripe',
        secretKey: 'sk_live_abc',
        publishableKey: 'pk_live_abc',
        webhookSecret: 'whsec_abc',
      }).success,
    ).toBe(true);
    expect(
      apiCredentialInput.safeParse({
        provider: 'paypal',
        name: 'PayPal',
        clientId: 'id',
        clientSecret: 'secret',
        webhookId: 'WH-1',
        apiBase: 'live',
      }).success,
    ).toBe(true);
    expect(
      apiCredentialInput.safeParse({ provider: 'vultr', name: 'V', apiKey: 'KEY', apiBase: '' })
        .success,
    ).toBe(true);
    const bad = apiCredentialInput.safeParse({
      provider: 'paypal',
      name: 'PayPal',
      clientId: 'id',
      clientSecret: 'secret',
      webhookId: 'WH-1',
      apiBase: 'javascript:alert(1)',
    });
    expect(bad.success).toBe(false);
  });
});
