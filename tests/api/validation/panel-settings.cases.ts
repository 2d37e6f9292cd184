import type { Case } from '../validation.test';

/** Bad input on panel settings and API credentials: each value at its field. */
export const cases: Case[] = [
  {
    route: 'PATCH /api/v1/admin/module-settings',
    as: 'admin',
    body: {
      currency: 'XYZ',
      enabled_gateways: [],
      dunning_days: [3, 1],
      grace_days: -1,
      seller_email: 'nope',
      backup_price_per_gb: 1.5,
    },
    errors: {
      currency: /A currency/,
      enabled_gateways: 'At least one way to pay',
      dunning_days: /Each reminder later/,
      grace_days: 'Not below 0',
      seller_email: 'An email address',
      backup_price_per_gb: /Whole minor units/,
    },
  },
  {
    route: 'PATCH /api/v1/admin/module-settings',
    as: 'admin',
    body: {
      tax_rates: [
        { country: 'XX', percent: 10 },
        { country: 'DE', percent: 101 },
        { country: 'FR', percent: 5.555 },
      ],
    },
    errors: {
      'tax_rates.0.country': /A country code/,
      'tax_rates.1.percent': 'At most 100 %',
      'tax_rates.2.percent': /two decimals/,
    },
  },
  {
    route: 'GET /api/v1/admin/api-credentials',
    as: 'admin',
    query: '?perPage=0',
    errors: { perPage: /./ },
  },
  {
    route: 'POST /api/v1/admin/api-credentials',
    as: 'admin',
    body: {
      provider: 'stripe',
      name: '',
      secretKey: 'pk_live_wrong',
      publishableKey: 'sk_live_wrong',
      webhookSecret: 'nope',
      apiBase: 'ftp://example.com',
    },
    errors: {
      name: 'A name',
      secretKey: /sk_live_/,
      publishableKey: /pk_live_/,
      webhookSecret: /whsec_/,
      apiBase: /address/,
    },
  },
  {
    route: 'POST /api/v1/admin/api-credentials',
    as: 'admin',
    body: { provider: 'paypal', name: 'PayPal', clientId: 'has space', apiBase: 'moon' },
    errors: {
      clientId: /no spaces/,
      clientSecret: /needed/,
      webhookId: /needed/,
      apiBase: /live, sandbox/,
    },
  },
  {
    route: 'PUT /api/v1/admin/api-credentials/:id',
    as: 'admin',
    params: async () => ({ id: 1 }),
    body: { provider: 'vultr', name: 'Vultr', apiKey: '' },
    errors: { apiKey: 'The API key is needed' },
  },
  {
    route: 'POST /api/v1/admin/api-credentials',
    as: 'admin',
    body: { provider: 'square', name: 'x' },
    errors: { provider: 'stripe, paypal or vultr' },
  },
];
