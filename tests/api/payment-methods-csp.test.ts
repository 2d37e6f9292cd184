import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentPageDirectives } from '../../server/plugins/securityHeaders';
import { type TestApp, buildTestApp } from './helpers';

/** Stripe.js is allowed on the payment pages' documents, and nowhere else. */
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-web-'));
let t: TestApp;
beforeAll(async () => {
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Stackdeck</title>');
  t = await buildTestApp({ webDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const page = { accept: 'text/html,application/xhtml+xml' };
const directive = (header: unknown, name: string) =>
  String(header)
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1);

describe('the payment pages’ CSP', () => {
  it.each(['/recharge-payment-method/7', '/recharge-payment-method', '/payment12', '/payment/12'])(
    '%s may load Stripe.js and its frames',
    async (url) => {
      const res = await t.call('GET', url, { headers: page });
      const csp = res.headers['content-security-policy'];
      expect(directive(csp, 'script-src')).toEqual([
        "'self'",
        'https://js.stripe.com',
        'https://*.js.stripe.com',
      ]);
      expect(directive(csp, 'frame-src')).toContain('https://hooks.stripe.com');
      expect(directive(csp, 'connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
      expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    },
  );

  it.each(['/', '/subscription', '/payment-invoice/3', '/recharge-payment-methods', '/my-profile'])(
    '%s may not',
    async (url) => {
      const res = await t.call('GET', url, { headers: page });
      expect(directive(res.headers['content-security-policy'], 'script-src')).toEqual(["'self'"]);
    },
  );

  it('adds the origin of a Stripe.js stand-in (STRIPE_JS_URL)', () => {
    const d = paymentPageDirectives('http://127.0.0.1:4010/v3');
    expect(d['script-src']).toContain('http://127.0.0.1:4010');
    expect(d['connect-src']).toContain('http://127.0.0.1:4010');
    expect(paymentPageDirectives('not a url')['script-src']).not.toContain('not a url');
  });
});
