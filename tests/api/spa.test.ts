import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, buildTestApp } from './helpers';

/** The built SPA: files served, history fallback for pages, JSON 404 for the API and assets. */
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-web-'));
let t: TestApp;
beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Stackdeck</title>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg/>');
  t = await buildTestApp({ webDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const page = { accept: 'text/html,application/xhtml+xml' };

describe('the SPA', () => {
  it.each(['/', '/login', '/admin/dashboard', '/server-summary/12', '/no/such/page'])(
    '%s answers index.html (history fallback), never cached',
    async (url) => {
      const res = await t.call('GET', url, { headers: page });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Stackdeck</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets for a year and other files revalidated', async () => {
    const asset = await t.call('GET', '/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.call('GET', '/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a JSON 404 for API paths and missing files, even to a browser', async () => {
    for (const [url, headers] of [
      ['/api/v1/nothing', page],
      ['/api/other', page],
      ['/assets/missing.js', {}],
    ] as const) {
      const res = await t.call('GET', url, { headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    }
    const post = await t.call('POST', '/login', { headers: page });
    expect(post.statusCode).toBe(404);
  });

  it.each([
    ['/license.txt', 'LICENSE'],
    ['/changelog.txt', 'CHANGELOG.md'],
  ])('serves the footer document %s from the install (%s)', async (url, file) => {
    const res = await t.call('GET', url, { headers: page });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(fs.readFileSync(file, 'utf8'));
  });

  it('does not serve files outside the web directory', async () => {
    const res = await t.call('GET', '/..%2f..%2fetc%2fpasswd', { headers: {} });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('root:');
  });

  it('the API still answers under it, with any case of the Bearer scheme', async () => {
    const user = await t.user();
    const res = await t.call('GET', `/api/v1/users/${user.id}`, {
      headers: { authorization: `bearer ${user.token}` },
    });
    expect(res.statusCode).toBe(200);
  });
});
