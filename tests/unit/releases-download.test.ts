import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REDIRECTS, fetchRelease } from '../../features/releases/agentDownload';

/**
 * The agent's release download against a real local HTTP server standing for the
 * administrator's loopback mirror: its redirects back to itself are followed, those to another
 * loopback address, to http elsewhere or to a name resolving to loopback are refused.
 */
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/file') return res.end('archive bytes');
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
      return res.end();
    }
    res.writeHead(302, { location: to ?? '/file' });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const redirectTo = (to: string) => `${base}/go?to=${encodeURIComponent(to)}`;

describe('the release download follows only checked redirects', () => {
  it("follows a redirect back to the administrator's own mirror", async () => {
    const res = await fetchRelease(`${base}/go`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('archive bytes');
  });

  it.each([
    ['http://127.0.0.2:8080/file', /only https/],
    ['https://127.0.0.2/file', /127\.0\.0\.2.*private or local/],
    ['https://169.254.169.254/latest/meta-data', /private or local/],
    ['https://2130706434/file', /127\.0\.0\.2.*private or local/],
    ['https://localhost/file', /localhost \(.+\), a private or local/],
    ['ftp://example.com/file', /only https/],
  ])('refuses a redirect to %s', async (to, why) => {
    await expect(fetchRelease(redirectTo(to))).rejects.toThrow(why);
  });

  it(`stops after ${MAX_REDIRECTS} redirects`, async () => {
    await expect(fetchRelease(`${base}/loop`)).rejects.toThrow(/more than 5 redirects/);
  });
});
