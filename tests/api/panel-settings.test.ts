import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCredential, billingSettings } from '../../features/panel-settings/serverApi';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Panel settings (`admin/module-settings`) and the panel's API credentials
 * (`admin/api-credentials`): admins only, every change audited, no secret in any answer or log.
 */
let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let user: TestUser;

const SETTINGS = '/api/v1/admin/module-settings';
const CREDS = '/api/v1/admin/api-credentials';

/** Every answer a test got, to look for secrets in. */
const answers: string[] = [];
const call = async (
  who: TestUser,
  method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => {
  const res = await t.call(method, url, { token: who.token, body });
  answers.push(res.body);
  return res;
};

const STRIPE_SECRET = 'sk_test_51SecretValueNeverShownAbCd';
const STRIPE_WEBHOOK = 'whsec_WebhookSecretNeverShownEfGh';
const PAYPAL_SECRET = 'PaypalClientSecretNeverShown-IjKl';
const VULTR_KEY = 'VULTRKEYNEVERSHOWNMNOP';
const SECRETS = [STRIPE_SECRET, STRIPE_WEBHOOK, PAYPAL_SECRET, VULTR_KEY, 'sk_test_51Replaced9999'];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
  staff = await t.user({ staff: true });
  user = await t.user();
});
afterAll(() => t.close());

const activity = () =>
  t.app.db
    .selectFrom('account_activity')
    .select(['user_id', 'who', 'message', 'created_at'])
    .where('user_id', '=', admin.id)
    .orderBy('id')
    .execute();

describe('panel settings', () => {
  it('reads the defaults before any change, and the contract says the same', async () => {
    const res = await call(admin, 'GET', SETTINGS);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: 'panel',
      settings: {
        currency: 'USD',
        manual_instructions: '',
        tax_rates: [],
        enabled_gateways: ['manual', 'stripe', 'paypal'],
        dunning_days: [1, 3, 5, 7],
        grace_days: 14,
        backup_price_per_gb: 0,
      },
      updated_at: null,
      updated_by: null,
      mail: { smtp_configured: true },
    });
    // SMTP_URL holds a password: the page learns it is set, never what it is.
    expect(res.body).not.toContain(t.config.smtpUrl!);
    expect(await billingSettings(t.app)).toEqual({
      currency: 'USD',
      manualInstructions: '',
      seller: { name: '', address: [], taxNumber: null, email: null },
      taxRates: [],
      enabledGateways: ['manual', 'stripe', 'paypal'],
      dunningDays: [1, 3, 5, 7],
      graceDays: 14,
    });
  });

  it('an admin changes some settings; the rest stay, the change is audited', async () => {
    const res = await call(admin, 'PATCH', SETTINGS, {
      currency: 'EUR',
      manual_instructions: 'IBAN DE89 3704 0044 0532 0130 00\nReference: the invoice number',
      seller_name: 'Stackdeck GmbH',
      seller_address: ['Hauptstr. 1', '10115 Berlin', 'Germany'],
      seller_tax_number: 'DE123456789',
      seller_email: 'billing@stackdeck.test',
      tax_rates: [
        { country: 'de', percent: 19 },
        { country: 'CH', percent: 7.7 },
        { country: '*', percent: 0 },
      ],
      enabled_gateways: ['manual', 'stripe'],
      grace_days: 10,
      backup_price_per_gb: 5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.settings).toMatchObject({
      currency: 'EUR',
      tax_rates: [
        { country: 'DE', percent: 19 },
        { country: 'CH', percent: 7.7 },
        { country: '*', percent: 0 },
      ],
      dunning_days: [1, 3, 5, 7],
      grace_days: 10,
    });
    expect(body.updated_by).toBe(admin.email);
    expect(body.updated_at).toEqual(expect.any(String));
    expect(await billingSettings(t.app)).toMatchObject({
      currency: 'EUR',
      manualInstructions: expect.stringContaining('IBAN'),
      seller: {
        name: 'Stackdeck GmbH',
        address: ['Hauptstr. 1', '10115 Berlin', 'Germany'],
        taxNumber: 'DE123456789',
        email: 'billing@stackdeck.test',
      },
      enabledGateways: ['manual', 'stripe'],
      graceDays: 10,
    });
    const log = (await activity()).filter((a) => a.message.startsWith('Panel settings'));
    expect(log).toHaveLength(1);
    expect(log[0]!.who).toBe(admin.email);
    expect(log[0]!.message).toContain('billing currency USD → EUR');
    expect(log[0]!.message).toContain('grace days 14 → 10');
    expect(log[0]!.message).toContain('bank transfer instructions changed');
    expect(log[0]!.message).not.toContain('IBAN');

    // The same values again change nothing and log nothing.
    const again = await call(admin, 'PATCH', SETTINGS, { grace_days: 10 });
    expect(again.statusCode).toBe(200);
    expect((await activity()).filter((a) => a.message.startsWith('Panel settings'))).toHaveLength(
      1,
    );
  });

  it('refuses bad values at their fields and changes nothing', async () => {
    const res = await call(admin, 'PATCH', SETTINGS, {
      currency: 'XYZ',
      tax_rates: [
        { country: 'XX', percent: 10 },
        { country: 'DE', percent: 101 },
      ],
      enabled_gateways: [],
      dunning_days: [3, 1],
      grace_days: -1,
      seller_email: 'nope',
    });
    expect(res.statusCode).toBe(400);
    expect((await billingSettings(t.app)).currency).toBe('EUR');
  });

  it('staff and users are refused', async () => {
    for (const who of [staff, user]) {
      expect((await call(who, 'GET', SETTINGS)).statusCode).toBe(403);
      expect((await call(who, 'PATCH', SETTINGS, { grace_days: 3 })).statusCode).toBe(403);
    }
    expect((await t.call('GET', SETTINGS)).statusCode).toBe(401);
  });
});

describe('API credentials', () => {
  let stripeId = 0;

  it('stores a Stripe credential sealed: the answer shows the last 4, never a secret', async () => {
    const res = await call(admin, 'POST', CREDS, {
      provider: 'stripe',
      name: 'Stripe live',
      secretKey: STRIPE_SECRET,
      publishableKey: 'pk_test_51PublishableShown',
      webhookSecret: STRIPE_WEBHOOK,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    stripeId = body.id;
    expect(body).toEqual({
      id: expect.any(Number),
      provider: 'stripe',
      name: 'Stripe live',
      public_fields: { publishableKey: 'pk_test_51PublishableShown' },
      key_last4: 'AbCd',
      created_by: admin.email,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await t.app.db
      .selectFrom('api_credentials')
      .selectAll()
      .where('id', '=', stripeId)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(STRIPE_SECRET);
    expect(row.secret_sealed.startsWith('v1:')).toBe(true);
    expect(await apiCredential(t.app, 'stripe')).toEqual({
      secretKey: STRIPE_SECRET,
      publishableKey: 'pk_test_51PublishableShown',
      webhookSecret: STRIPE_WEBHOOK,
    });
  });

  it('stores PayPal (sandbox as its address) and Vultr; one credential a provider', async () => {
    const paypal = await call(admin, 'POST', CREDS, {
      provider: 'paypal',
      name: 'PayPal sandbox',
      clientId: 'AaPaypalClientId',
      clientSecret: PAYPAL_SECRET,
      webhookId: 'WH-123',
      apiBase: 'sandbox',
    });
    expect(paypal.statusCode, paypal.body).toBe(201);
    expect(paypal.json()).toMatchObject({
      public_fields: { clientId: 'AaPaypalClientId', webhookId: 'WH-123', apiBase: 'sandbox' },
      key_last4: 'IjKl',
    });
    expect(await apiCredential(t.app, 'paypal')).toEqual({
      clientId: 'AaPaypalClientId',
      clientSecret: PAYPAL_SECRET,
      webhookId: 'WH-123',
      apiBase: 'https://api-m.sandbox.paypal.com',
    });
    expect(await apiCredential(t.app, 'vultr')).toBeNull();
    const vultr = await call(admin, 'POST', CREDS, {
      provider: 'vultr',
      name: 'Vultr',
      apiKey: VULTR_KEY,
      apiBase: 'http://127.0.0.1:9/v2/',
    });
    expect(vultr.statusCode, vultr.body).toBe(201);
    expect(await apiCredential(t.app, 'vultr')).toEqual({
      apiKey: VULTR_KEY,
      apiBase: 'http://127.0.0.1:9/v2',
    });
    const twice = await call(admin, 'POST', CREDS, {
      provider: 'vultr',
      name: 'Vultr 2',
      apiKey: 'ANOTHERKEY',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/replace it instead/);
  });

  it('refuses malformed fields at their names', async () => {
    const res = await call(admin, 'POST', CREDS, {
      provider: 'stripe',
      name: '',
      secretKey: 'pk_live_wrongkind',
      publishableKey: 'sk_live_wrongkind',
      webhookSecret: 'nope',
    });
    expect(res.statusCode).toBe(400);
    const unknown = await call(admin, 'POST', CREDS, { provider: 'square', name: 'x' });
    expect(unknown.statusCode).toBe(400);
  });

  it('lists without secrets, replaces (same provider only) and deletes', async () => {
    const list = await call(admin, 'GET', `${CREDS}?sort=provider&order=ASC`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((c: { provider: string }) => c.provider)).toEqual([
      'paypal',
      'stripe',
      'vultr',
    ]);
    const wrong = await call(admin, 'PUT', `${CREDS}/${stripeId}`, {
      provider: 'vultr',
      name: 'x',
      apiKey: 'KEY',
    });
    expect(wrong.statusCode).toBe(400);
    const replaced = await call(admin, 'PUT', `${CREDS}/${stripeId}`, {
      provider: 'stripe',
      name: 'Stripe (rotated)',
      secretKey: 'sk_test_51Replaced9999',
      publishableKey: 'pk_test_51PublishableShown',
      webhookSecret: STRIPE_WEBHOOK,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ name: 'Stripe (rotated)', key_last4: '9999' });
    expect((await apiCredential(t.app, 'stripe'))?.secretKey).toBe('sk_test_51Replaced9999');
    expect(
      (await call(admin, 'PUT', `${CREDS}/999999`, { provider: 'vultr', name: 'x', apiKey: 'K' }))
        .statusCode,
    ).toBe(404);

    const gone = await call(admin, 'DELETE', `${CREDS}/${stripeId}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await apiCredential(t.app, 'stripe')).toBeNull();
    expect((await call(admin, 'DELETE', `${CREDS}/${stripeId}`)).statusCode).toBe(404);

    const log = (await activity())
      .map((a) => a.message)
      .filter((m) => m.startsWith('API credential'));
    expect(log).toEqual([
      'API credential added: stripe "Stripe live"',
      'API credential added: paypal "PayPal sandbox"',
      'API credential added: vultr "Vultr"',
      'API credential replaced: stripe "Stripe (rotated)"',
      'API credential removed: stripe "Stripe (rotated)"',
    ]);
  });

  it('staff and users are refused', async () => {
    for (const who of [staff, user]) {
      expect((await call(who, 'GET', CREDS)).statusCode).toBe(403);
      expect(
        (await call(who, 'POST', CREDS, { provider: 'vultr', name: 'x', apiKey: 'KEY' }))
          .statusCode,
      ).toBe(403);
    }
  });

  it('no secret is in any answer or in the activity log', async () => {
    const everything = [
      ...answers,
      JSON.stringify(await activity()),
      JSON.stringify(await t.app.db.selectFrom('account_activity').selectAll().execute()),
    ].join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });
});
