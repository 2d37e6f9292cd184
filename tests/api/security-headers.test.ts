import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, buildTestApp } from './helpers';

/**
 * Every answer of the panel carries its security headers (@fastify/helmet): pages, API calls,
 * the API viewer, errors. HSTS only where the panel is reached over HTTPS.
 */
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-web-'));
let t: TestApp;
let user: Awaited<ReturnType<TestApp['user']>>;
beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Stackdeck</title>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await buildTestApp({ webDir });
  user = await t.user();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const page = { accept: 'text/html,application/xhtml+xml' };

/** The CSP as a map of directive -> sources. */
function csp(header: unknown): Record<string, string[]> {
  expect(typeof header, 'content-security-policy').toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const requests: [string, () => ReturnType<TestApp['call']>][] = [
  ['a page of the SPA', () => t.call('GET', '/server-summary/12', { headers: page })],
  ['the SPA at /', () => t.call('GET', '/', { headers: page })],
  ['a hashed asset', () => t.call('GET', '/assets/index-abc123.js')],
  ['an API call', () => t.call('GET', `/api/v1/users/${user.id}`, { token: user.token })],
  ['an API error', () => t.call('GET', `/api/v1/users/${user.id}`)],
  ['the API viewer', () => t.call('GET', '/api/docs')],
  ['the API viewer script', () => t.call('GET', '/api/docs/static/swagger-initializer.js')],
  ['the API document', () => t.call('GET', '/api/docs/json')],
  ['an unknown API path', () => t.call('GET', '/api/v1/nothing/here')],
];

describe('security headers', () => {
  it.each(requests)('%s: no framing, no sniffing, a referrer policy, a CSP', async (_, send) => {
    const res = await send();
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // Plain HTTP (PUBLIC_URL http://panel.test): no HSTS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const policy = csp(res.headers['content-security-policy']);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
    // Scripts only from the panel itself: no inline code, no eval, no CDN.
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['script-src-attr']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
    expect(policy['form-action']).toEqual(["'self'"]);
    // The live socket goes to the panel's own origin; Monaco's workers come from it or a blob.
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['worker-src']).toEqual(["'self'", 'blob:']);
    // MUI (emotion) writes its styles into <style> elements at run time.
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    // An http:// panel must not have its own requests rewritten to https://.
    expect(policy).not.toHaveProperty('upgrade-insecure-requests');
  });

  it('the API viewer still loads: its scripts are files of the panel', async () => {
    const res = await t.call('GET', '/api/docs');
    expect(res.statusCode).toBe(200);
    // No inline script: every <script> names a file, and each one is served.
    const tags = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(tags.length).toBeGreaterThan(0);
    for (const attributes of tags) {
      const src = /src="([^"]+)"/.exec(attributes)?.[1];
      expect(src, attributes).toBeDefined();
      const url = new URL(src!, 'http://panel.test/api/docs');
      const script = await t.call('GET', url.pathname);
      expect(script.statusCode, url.pathname).toBe(200);
    }
  });
});

describe('HSTS', () => {
  it('is sent when PUBLIC_URL is https', async () => {
    const https = await buildTestApp({ publicUrl: 'https://panel.example.org' });
    try {
      for (const url of ['/api/docs/json', '/healthz']) {
        const res = await https.call('GET', url);
        expect(res.headers['strict-transport-security']).toBe(
          'max-age=31536000; includeSubDomains',
        );
      }
    } finally {
      await https.close();
    }
  });

  it('is sent behind a trusted proxy that says the request came over https, only then', async () => {
    const proxied = await buildTestApp({ trustProxy: '127.0.0.1' });
    try {
      const secure = await proxied.call('GET', '/healthz', {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
      const plain = await proxied.call('GET', '/healthz');
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      // A client that is not the trusted proxy cannot ask for it.
      const spoofed = await proxied.call('GET', '/healthz', {
        ip: '203.0.113.9',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY the header is not believed.
    const forwarded = await t.call('GET', '/healthz', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forwarded.headers['strict-transport-security']).toBeUndefined();
  });
});
