import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { GUARDS } from '../../resources/define';
import authPlugin from '../../server/plugins/auth';
import { type TestApp, buildTestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('route guards', () => {
  it('every registered route declares a guard', () => {
    const routes = t.app.registeredRoutes;
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes
      .filter((r) => !GUARDS.includes(r.guard))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('only the sign-in calls of the API are public', () => {
    const publicApi = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/v1/') && r.guard === 'public' && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicApi).toEqual(
      [
        'GET /api/v1/users',
        'GET /api/v1/users/email',
        'POST /api/v1/users',
        'POST /api/v1/users/confirm',
        'POST /api/v1/users/login',
        'POST /api/v1/users/password',
      ].sort(),
    );
  });

  it('the HEAD twin of every GET route has the same guard and answers like it', async () => {
    const gets = t.app.registeredRoutes.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api/v1/'),
    );
    for (const get of gets) {
      const head = t.app.registeredRoutes.find((r) => r.method === 'HEAD' && r.url === get.url);
      expect(head?.guard, get.url).toBe(get.guard);
    }
    const admin = await t.call('HEAD', '/api/v1/admin/outbox');
    expect(admin.statusCode).toBe(401);
    const user = await t.user();
    const other = await t.call('HEAD', `/api/v1/users/${user.id + 1000}`, { token: user.token });
    expect(other.statusCode).toBe(404);
    const own = await t.call('HEAD', `/api/v1/users/${user.id}`, { token: user.token });
    expect(own.statusCode).toBe(200);
    expect(own.body).toBe('');
  });

  it('refuses to mount an API route without a guard', async () => {
    const bare = Fastify();
    await bare.register(authPlugin);
    bare.register(async (child) => {
      child.get('/api/v1/unguarded', async () => ({}));
    });
    await expect(bare.ready()).rejects.toThrow(/GET \/api\/v1\/unguarded declares no guard/);
  });
});
