import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { z } from 'zod';
import { GUARDS, type ResourceDef, defineResource } from '../../resources/define';
import { defineHandlers } from '../../server/http/handlers';
import { mountResources } from '../../server/http/mount';
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
        // GitHub's and GitLab's pushes: the signature or token over the raw body is the proof.
        'POST /api/v1/hooks/git/:token',
        // The payment gateways' webhooks: Stripe's signature over the raw body, PayPal's
        // verification call; PayPal's return (the order is captured and checked server-side);
        // where Stripe.js loads from.
        'POST /api/v1/webhooks/stripe',
        'POST /api/v1/webhooks/paypal',
        'GET /api/v1/paypal/return',
        'GET /api/v1/payment-methods/stripe.js',
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

  describe('refuses to mount a child route nothing loads through its server', () => {
    const widget = (extra: Partial<ResourceDef>) =>
      defineResource({
        name: 'widgets',
        label: 'Widgets',
        schema: z.object({ id: z.number() }),
        paths: { one: 'widgets/{id}/servers/{sid}/users/{uid}' },
        ops: { get: { guard: 'self' } },
        ...extra,
      });
    // The handlers' types follow the declaration, which here is assembled at run time.
    const handlers = { get: async () => ({ id: 1 }), actions: {} } as never;
    const mount = (resource: ResourceDef) =>
      mountResources(Fastify(), [defineHandlers(resource, handlers)]);

    it('without a declared parent', () => {
      expect(() => mount(widget({}))).toThrow(/names \{id\} but no parent/);
    });
    it('without a loader in the registry', () => {
      expect(() => mount(widget({ parent: 'server', params: { id: 'id' } }))).toThrow(
        /no loader for \{id\}/,
      );
    });
    it('a declaration under a server without a kind for the child parameter', () => {
      expect(() => widget({ parent: 'server' })).toThrow(/declares no kind for \{id\}/);
    });
  });
});
