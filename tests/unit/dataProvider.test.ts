import { HttpError } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAuthProvider } from '../../dataProvider/authProvider';
import { createDataProvider } from '../../dataProvider/dataProvider';
import type { HttpClient, HttpRequest } from '../../dataProvider/http';
import { fetchHttpClient } from '../../dataProvider/http';
import { memoryStorage, storageSessionStore } from '../../dataProvider/session';
import { resources } from '../../resources';
import { defineResource } from '../../resources/define';

/** A fake HTTP client in the manner of ra-data-simple-rest's spec: records calls, returns canned JSON. */
function fakeHttp(json: unknown = {}) {
  const calls: { url: string; request: HttpRequest }[] = [];
  const http: HttpClient = async (url, request) => {
    calls.push({ url, request });
    return { status: 200, json };
  };
  return { http, calls };
}

const cronjobs = defineResource({
  name: 'cronjobs',
  label: 'Cron jobs',
  schema: z.object({ id: z.number(), command: z.string() }),
  paths: {
    list: 'cronjobs/servers/{sid}/users/{uid}',
    one: 'cronjobs/{id}/servers/{sid}/users/{uid}',
  },
  ops: {
    list: { guard: 'self', sort: ['created_at', 'command'] },
    get: { guard: 'self' },
    create: { guard: 'self' },
    update: { guard: 'self', method: 'PATCH' },
    delete: { guard: 'self' },
  },
});
const tickets = defineResource({
  name: 'tickets',
  label: 'Tickets',
  schema: z.object({ id: z.number() }),
  paths: { list: 'supportcs/tickets/users/{uid}' },
  ops: { list: { guard: 'self', dataKey: 'tickets.ticket' } },
});

function provider(json?: unknown, uid: number | null = 7) {
  const { http, calls } = fakeHttp(json);
  const dataProvider = createDataProvider({
    http,
    resources: { ...resources, cronjobs, tickets },
    context: () => ({ uid }),
  });
  return { dataProvider, calls };
}

describe('dataProvider URL building', () => {
  it('getList fills the acting user, pages, sorts and filters', async () => {
    const { dataProvider, calls } = provider({ data: [{ id: 1 }], total: 41 });
    const result = await dataProvider.getList('authlogs', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'created_at', order: 'ASC' },
      filter: { outcome: 'success' },
    });
    expect(calls[0]!.url).toBe(
      '/api/v1/authlogs/users/7?outcome=success&page=2&perPage=20&sort=created_at&order=ASC',
    );
    expect(calls[0]!.request.method).toBe('GET');
    expect(result).toEqual({ data: [{ id: 1 }], total: 41 });
  });

  it('drops a sort field the resource does not declare sortable', async () => {
    const { dataProvider, calls } = provider({ data: [], total: 0 });
    await dataProvider.getList('authlogs', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'ip; drop table users', order: 'DESC' },
      filter: {},
    });
    expect(calls[0]!.url).toBe('/api/v1/authlogs/users/7?page=1&perPage=10&order=DESC');
  });

  it('moves filter keys that name path placeholders into the path', async () => {
    const { dataProvider, calls } = provider({ data: [], total: 0 });
    await dataProvider.getList('cronjobs', {
      pagination: { page: 1, perPage: 25 },
      filter: { sid: 3, q: 'php' },
    });
    expect(calls[0]!.url).toBe('/api/v1/cronjobs/servers/3/users/7?q=php&page=1&perPage=25');
  });

  it('reads a list nested where the spec fixes the shape (tickets.ticket)', async () => {
    const { dataProvider } = provider({ tickets: { ticket: [{ id: 9 }] }, total: 1 });
    const result = await dataProvider.getList('tickets', {
      pagination: { page: 1, perPage: 5 },
      filter: {},
    });
    expect(result.data).toEqual([{ id: 9 }]);
  });

  it('getOne uses the declared id parameter (users/{uid})', async () => {
    const { dataProvider, calls } = provider({ id: 12 });
    await dataProvider.getOne('users', { id: 12 });
    expect(calls[0]!.url).toBe('/api/v1/users/12');
  });

  it('getOne, update and delete of a server-scoped resource take sid from meta', async () => {
    const { dataProvider, calls } = provider({ id: 5, command: 'ls' });
    await dataProvider.getOne('cronjobs', { id: 5, meta: { sid: 3 } });
    await dataProvider.update('cronjobs', {
      id: 5,
      data: { id: 5, command: 'php artisan schedule:run' },
      previousData: { id: 5, command: 'ls' },
      meta: { sid: 3 },
    });
    await dataProvider.delete('cronjobs', { id: 5, previousData: { id: 5 }, meta: { sid: 3 } });
    expect(calls.map((c) => `${c.request.method} ${c.url}`)).toEqual([
      'GET /api/v1/cronjobs/5/servers/3/users/7',
      'PATCH /api/v1/cronjobs/5/servers/3/users/7',
      'DELETE /api/v1/cronjobs/5/servers/3/users/7',
    ]);
    // PATCH sends only what changed.
    expect(JSON.parse(calls[1]!.request.body!)).toEqual({ command: 'php artisan schedule:run' });
  });

  it('delete names a record by its own field where the path does (svjobs/{name})', async () => {
    const { dataProvider, calls } = provider({ id: 4, status: 'deleted' });
    await dataProvider.delete('svjobs', {
      id: 4,
      previousData: { id: 4, name: 'queue' },
      meta: { sid: 3 },
    });
    expect(calls[0]!.url).toBe('/api/v1/svjobs/queue/servers/3/users/7');
  });

  it('PUT updates send the whole record', async () => {
    const { dataProvider, calls } = provider({ id: 7 });
    await dataProvider.update('users', {
      id: 7,
      data: { id: 7, City: 'Oslo' },
      previousData: { id: 7, City: 'Bergen' },
    });
    expect(calls[0]!.request.method).toBe('PUT');
    expect(JSON.parse(calls[0]!.request.body!)).toEqual({ id: 7, City: 'Oslo' });
  });

  it('create posts to the collection path', async () => {
    const { dataProvider, calls } = provider({ id: 1, command: 'ls' });
    const result = await dataProvider.create('cronjobs', {
      data: { command: 'ls' },
      meta: { sid: 3 },
    });
    expect(calls[0]!.url).toBe('/api/v1/cronjobs/servers/3/users/7');
    expect(calls[0]!.request.method).toBe('POST');
    expect(result.data).toEqual({ id: 1, command: 'ls' });
  });

  it('getMany, updateMany and deleteMany fan out per id', async () => {
    const { dataProvider, calls } = provider({ id: 1 });
    await dataProvider.getMany('cronjobs', { ids: [1, 2], meta: { sid: 3 } });
    await dataProvider.updateMany('cronjobs', {
      ids: [1, 2],
      data: { command: 'x' },
      meta: { sid: 3 },
    });
    const deleted = await dataProvider.deleteMany('cronjobs', { ids: [1, 2], meta: { sid: 3 } });
    expect(calls.map((c) => `${c.request.method} ${c.url}`)).toEqual([
      'GET /api/v1/cronjobs/1/servers/3/users/7',
      'GET /api/v1/cronjobs/2/servers/3/users/7',
      'PATCH /api/v1/cronjobs/1/servers/3/users/7',
      'PATCH /api/v1/cronjobs/2/servers/3/users/7',
      'DELETE /api/v1/cronjobs/1/servers/3/users/7',
      'DELETE /api/v1/cronjobs/2/servers/3/users/7',
    ]);
    expect(deleted.data).toEqual([1, 2]);
  });

  it('getManyReference filters the list by the target', async () => {
    const { dataProvider, calls } = provider({ data: [], total: 0 });
    await dataProvider.getManyReference('cronjobs', {
      target: 'sid',
      id: 4,
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'command', order: 'ASC' },
      filter: {},
    });
    expect(calls[0]!.url).toBe(
      '/api/v1/cronjobs/servers/4/users/7?page=1&perPage=25&sort=command&order=ASC',
    );
  });

  it('action() calls a declared action with its method, path, query and body', async () => {
    const { dataProvider, calls } = provider({ ok: true });
    await dataProvider.action('user-security', 'generateApiKey');
    await dataProvider.action('users', 'login', {
      body: { email: 'a@b.c', password: 'x' },
      query: { otp: '123456' },
    });
    await dataProvider.action('admin-users', 'actAs', { params: { uid: 42 } });
    expect(calls.map((c) => `${c.request.method} ${c.url}`)).toEqual([
      'POST /api/v1/auth/gen/users/7',
      'POST /api/v1/users/login?otp=123456',
      'POST /api/v1/admin/act-as/users/42',
    ]);
    expect(JSON.parse(calls[1]!.request.body!)).toEqual({ email: 'a@b.c', password: 'x' });
  });

  it('encodes path values and refuses a missing one', async () => {
    const { dataProvider, calls } = provider({});
    await dataProvider.getOne('cronjobs', { id: '../5', meta: { sid: 3 } });
    expect(calls[0]!.url).toBe('/api/v1/cronjobs/..%2F5/servers/3/users/7');
    await expect(dataProvider.getOne('cronjobs', { id: 5 })).rejects.toThrow(
      /missing path parameter "sid"/,
    );
    const signedOut = provider({}, null);
    await expect(signedOut.dataProvider.getList('authlogs', { filter: {} })).rejects.toThrow(
      /"uid"/,
    );
  });

  it('adds meta.query to item calls and creates (routes the spec overloads by query)', async () => {
    const { dataProvider, calls } = provider({ id: 1 });
    await dataProvider.create('cronjobs', { data: {}, meta: { sid: 3, query: { dry: true } } });
    await dataProvider.getOne('cronjobs', { id: 5, meta: { sid: 3, query: { rsa: 'get' } } });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/cronjobs/servers/3/users/7?dry=true',
      '/api/v1/cronjobs/5/servers/3/users/7?rsa=get',
    ]);
  });

  it('tells onWrite about writes, not reads', async () => {
    const { http } = fakeHttp({ id: 1, data: [], total: 0 });
    const writes: string[] = [];
    const dataProvider = createDataProvider({
      http,
      resources: { ...resources, cronjobs },
      context: () => ({ uid: 7 }),
      onWrite: (resource) => writes.push(resource),
    });
    await dataProvider.getOne('users', { id: 7 });
    await dataProvider.getList('authlogs', { filter: {} });
    await dataProvider.action('users', 'photo');
    expect(writes).toEqual([]);
    await dataProvider.update('users', { id: 7, data: { City: 'Oslo' }, previousData: { id: 7 } });
    await dataProvider.action('users', 'setPhoto', { body: { data: 'x' } });
    await dataProvider.create('cronjobs', { data: {}, meta: { sid: 1 } });
    await dataProvider.delete('cronjobs', { id: 1, meta: { sid: 1 } });
    expect(writes).toEqual(['users', 'users', 'cronjobs', 'cronjobs']);
  });

  it('refuses operations a resource does not declare', async () => {
    const { dataProvider, calls } = provider({});
    await expect(dataProvider.create('authlogs', { data: {} })).rejects.toThrow(
      /no create operation/,
    );
    await expect(dataProvider.action('users', 'nope')).rejects.toThrow(/no action "nope"/);
    expect(calls).toHaveLength(0);
  });
});

describe('fetchHttpClient', () => {
  it('sends the bearer token and turns error bodies into HttpError with field errors', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(
        JSON.stringify({
          statusCode: 400,
          message: 'Invalid email',
          errors: { email: 'Enter a valid email address' },
        }),
        { status: 400 },
      );
    }) as unknown as typeof fetch;
    const http = fetchHttpClient(() => 'tok', fetchImpl);
    const error = await http('/api/v1/users', { method: 'POST', body: '{}' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).message).toBe('Invalid email');
    expect((error as HttpError).body.errors).toEqual({ email: 'Enter a valid email address' });
    const headers = seen[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok');
    expect(headers['content-type']).toBe('application/json');
  });
});

describe('authProvider', () => {
  function setup(answers: Record<string, unknown>) {
    const storage = memoryStorage();
    const sessions = storageSessionStore(storage);
    const calls: string[] = [];
    const http: HttpClient = async (url, request) => {
      calls.push(`${request.method} ${url}`);
      const key = Object.keys(answers).find((k) => url.includes(k));
      return { status: 200, json: key ? answers[key] : {} };
    };
    const dataProvider = createDataProvider({
      http,
      resources,
      context: () => ({ uid: sessions.get()?.userId ?? null }),
    });
    const authProvider = createAuthProvider({ dataProvider, sessions, resources });
    return { authProvider, sessions, storage, calls };
  }

  it('stores only the token, the user id and the admin flag', async () => {
    const { authProvider, storage } = setup({
      'users/login': { User: { id: 3, is_admin: false, plan_id: 2 }, Token: 'T' },
    });
    const result = await authProvider.login({ email: 'a@b.c', password: 'pw' });
    expect(result).toEqual({ redirectTo: '/dashboard' });
    const kept = Object.fromEntries(
      Array.from({ length: storage.length }, (_, i) => [
        storage.key(i),
        storage.getItem(storage.key(i)!),
      ]),
    );
    expect(kept).toEqual({ 'stackdeck.token': 'T', 'stackdeck.user': '{"id":3,"is_admin":false}' });
  });

  it('sends the OTP step to /validate-otp and keeps the credentials in memory only', async () => {
    const { authProvider, storage } = setup({
      'users/login': { otp_required: true, method: 'email' },
    });
    expect(await authProvider.login({ email: 'a@b.c', password: 'pw' })).toEqual({
      redirectTo: '/validate-otp',
    });
    expect(authProvider.pendingLogin()).toEqual({
      email: 'a@b.c',
      password: 'pw',
      method: 'email',
    });
    expect(storage.length).toBe(0);
  });

  it('maps 401 token expired to the session-expired message and 403 to the 403 page', async () => {
    const { authProvider, sessions } = setup({});
    sessions.set({ token: 'T', userId: 1, isAdmin: false });
    await expect(
      authProvider.checkError({ status: 401, message: 'token expired' }),
    ).rejects.toEqual({
      redirectTo: '/login',
      message: 'Session expired! Please, login again',
    });
    expect(sessions.get()).toBeNull();
    // For the message's moments, the guard sends this tab to /login, not /register, also
    // after react-admin's logout that follows the 401.
    await authProvider.logout({});
    expect(sessions.ended()).toBe(true);
    sessions.set({ token: 'U', userId: 2, isAdmin: false });
    expect(sessions.ended()).toBe(false);
    await expect(authProvider.checkError({ status: 403 })).rejects.toMatchObject({
      redirectTo: '/403',
      logoutUser: false,
    });
    // A plan limit is answered where it was asked (the words and an Upgrade link), not the 403 page.
    await expect(
      authProvider.checkError({ status: 403, body: { code: 'plan_limit' } }),
    ).resolves.toBeUndefined();
    await expect(authProvider.checkError({ status: 500 })).resolves.toBeUndefined();
  });

  it('sends a visitor without a token to /register', async () => {
    const { authProvider } = setup({});
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/register' });
  });

  it('acts as a user and switches back to the admin session', async () => {
    const { authProvider, sessions, calls } = setup({
      'admin/act-as/users/9': { User: { id: 9, is_admin: false, plan_id: 1 }, Token: 'ACT' },
    });
    sessions.set({ token: 'ADMIN', userId: 1, isAdmin: true });
    await authProvider.actAs(9);
    expect(sessions.get()).toEqual({ token: 'ACT', userId: 9, isAdmin: false });
    expect(authProvider.isActing()).toBe(true);
    await authProvider.switchBack();
    expect(sessions.get()).toEqual({ token: 'ADMIN', userId: 1, isAdmin: true });
    expect(authProvider.isActing()).toBe(false);
    expect(calls).toEqual(['POST /api/v1/admin/act-as/users/9', 'POST /api/v1/users/logout']);
  });

  it('canAccess follows the declared guards', async () => {
    const { authProvider, sessions } = setup({ 'users/1': { id: 1, is_admin_staff: true } });
    sessions.set({ token: 'T', userId: 1, isAdmin: false });
    expect(await authProvider.canAccess!({ resource: 'admin-users', action: 'list' })).toBe(true);
    expect(await authProvider.canAccess!({ resource: 'outbox', action: 'list' })).toBe(false);
    expect(await authProvider.canAccess!({ resource: 'authlogs', action: 'list' })).toBe(true);
    expect(await authProvider.canAccess!({ resource: 'authlogs', action: 'delete' })).toBe(false);
  });
});
