import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  STRIPE_JS_URL,
  envCredential,
  stripeJsUrl,
  useGatewayEnvironment,
} from '../../features/payment-methods/serverSettings';

/** Two panels in one process: each its own settings object, as build() decorates them. */
const panel = () => ({ config: {} }) as unknown as FastifyInstance;

const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_1',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
  STRIPE_WEBHOOK_SECRET: 'whsec_1',
};
const PAYPAL = {
  PAYPAL_CLIENT_ID: 'id',
  PAYPAL_CLIENT_SECRET: 'secret',
  PAYPAL_WEBHOOK_ID: 'WH-1',
};

afterEach(() => vi.unstubAllEnvs());

/** The environment's part; an admin's keys on /admin/api come first (tests/api/payment-methods.test.ts). */
describe('payment-methods settings (serverSettings.ts)', () => {
  it("gives a provider's fields from the environment as panel-settings' apiCredential gives them", async () => {
    const app = panel();
    useGatewayEnvironment(app, { ...STRIPE, STRIPE_API_URL: 'http://127.0.0.1:1', ...PAYPAL });
    expect(envCredential(app, 'stripe')).toEqual({
      secretKey: 'sk_test_1',
      publishableKey: 'pk_test_1',
      webhookSecret: 'whsec_1',
      apiBase: 'http://127.0.0.1:1',
    });
    // PayPal's live API unless the settings name another (the sandbox, a fake).
    expect(envCredential(app, 'paypal')).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      webhookId: 'WH-1',
      apiBase: 'https://api-m.paypal.com',
    });
  });

  it('is null while a required field is missing or blank', async () => {
    const app = panel();
    useGatewayEnvironment(app, { ...STRIPE, STRIPE_WEBHOOK_SECRET: '  ', PAYPAL_CLIENT_ID: 'id' });
    expect(envCredential(app, 'stripe')).toBeNull();
    expect(envCredential(app, 'paypal')).toBeNull();
  });

  it("reads the process's environment unless the app was given its own, and never mixes apps", async () => {
    vi.stubEnv('STRIPE_SECRET_KEY', 'sk_from_env');
    vi.stubEnv('STRIPE_PUBLISHABLE_KEY', 'pk_from_env');
    vi.stubEnv('STRIPE_WEBHOOK_SECRET', 'whsec_from_env');
    const plain = panel();
    const tested = panel();
    useGatewayEnvironment(tested, {});
    expect(envCredential(plain, 'stripe')?.secretKey).toBe('sk_from_env');
    expect(envCredential(tested, 'stripe')).toBeNull();
  });

  it('loads Stripe.js from Stripe unless STRIPE_JS_URL names a stand-in', () => {
    const app = panel();
    useGatewayEnvironment(app, {});
    expect(stripeJsUrl(app)).toBe(STRIPE_JS_URL);
    useGatewayEnvironment(app, { STRIPE_JS_URL: 'http://127.0.0.1:9/v3' });
    expect(stripeJsUrl(app)).toBe('http://127.0.0.1:9/v3');
  });
});
