import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ActionDef, OperationDef, ResourceDef } from '../../resources/define';
import { templateParams } from '../../resources/define';
import { resources } from '../../resources';
import { type TestApp, buildTestApp } from './helpers';

/** OpenAPI 3.1 at /api/docs/json, generated from the resource declarations. */
interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: { 'application/json': { schema: { properties?: object } } } };
  responses: Record<string, unknown>;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.call('GET', '/api/docs/json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

interface Declared {
  name: string;
  method: string;
  template: string;
  def: OperationDef;
  body?: z.ZodType;
  query: string[];
  status: number;
}

/** Every operation the declarations make, as the server mounts them. */
function declared(): Declared[] {
  const out: Declared[] = [];
  for (const r of Object.values(resources) as ResourceDef[]) {
    const { list, get, create, update, delete: del } = r.ops;
    const one = r.paths.one!;
    const many = r.paths.list!;
    if (list) {
      const filters = Object.keys(list.filters?.shape ?? {});
      out.push({
        name: `${r.name}.list`,
        method: 'get',
        template: many,
        def: list,
        query: ['page', 'perPage', 'sort', 'order', ...filters],
        status: 200,
      });
    }
    if (get)
      out.push({
        name: `${r.name}.get`,
        method: 'get',
        template: one,
        def: get,
        query: Object.keys(get.query?.shape ?? {}),
        status: 200,
      });
    if (create)
      out.push({
        name: `${r.name}.create`,
        method: 'post',
        template: many,
        def: create,
        body: create.body ?? r.input ?? r.schema,
        query: Object.keys(create.query?.shape ?? {}),
        status: 201,
      });
    if (update)
      out.push({
        name: `${r.name}.update`,
        method: (update.method ?? 'PUT').toLowerCase(),
        template: one,
        def: update,
        body: update.body ?? r.input ?? r.schema,
        query: Object.keys(update.query?.shape ?? {}),
        status: 200,
      });
    if (del)
      out.push({
        name: `${r.name}.delete`,
        method: 'delete',
        template: one,
        def: del,
        query: Object.keys(del.query?.shape ?? {}),
        status: 200,
      });
    for (const [name, a] of Object.entries<ActionDef>(r.actions ?? {})) {
      out.push({
        name: `${r.name}.${name}`,
        method: a.method.toLowerCase(),
        template: a.path,
        def: a,
        body: a.body,
        query: Object.keys((a.query as z.ZodObject | undefined)?.shape ?? {}),
        status: a.status ?? 200,
      });
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the bearer and API-key schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'apiSecret',
      'bearer',
    ]);
  });

  it('has every route the panel registered under /api/v1, and nothing else', () => {
    const routes = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD')
      .map((r) => `${r.method.toLowerCase()} ${r.url.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort();
    expect(routes.length).toBeGreaterThan(20);
    expect(documented).toEqual(routes);
  });

  it.each(declared())('$name: method, path, parameters, body and security as declared', (d) => {
    const op = doc.paths[`/api/v1/${d.template}`]?.[d.method];
    expect(op, `${d.method} ${d.template}`).toBeDefined();
    expect(op!.operationId).toBe(d.name);
    expect(op!.summary).toBeTruthy();
    expect(op!.tags).toHaveLength(1);

    const params = op!.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    expect(pathParams.map((p) => p.name).sort()).toEqual(templateParams(d.template).sort());
    expect(pathParams.every((p) => p.required)).toBe(true);
    expect(
      params
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
    ).toEqual([...d.query].sort());

    if (d.body) {
      const schema = op!.requestBody?.content['application/json'].schema;
      // An optional body (`servers.lifecycle`) documents the shape it may have.
      const body =
        d.body instanceof z.ZodOptional
          ? (d.body.unwrap() as z.ZodObject)
          : (d.body as z.ZodObject);
      expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(Object.keys(body.shape).sort());
    } else {
      expect(op!.requestBody).toBeUndefined();
    }

    expect(op!.security).toEqual(
      d.def.guard === 'public' ? [] : [{ bearer: [] }, { apiKey: [], apiSecret: [] }],
    );
    expect(Object.keys(op!.responses)).toContain(String(d.status));
  });

  it('operation ids are unique', () => {
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents what the server never sends: no secret field in any response schema', () => {
    const text = JSON.stringify(
      Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.responses)),
    );
    for (const field of ['password_hash', 'api_secret_hash', 'totp_secret', 'totp_pending_secret'])
      expect(text).not.toContain(field);
  });

  it('serves the viewer at /api/docs', async () => {
    const res = await t.call('GET', '/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('GET /healthz', () => {
  it('answers ok while the database answers', async () => {
    const res = await t.call('GET', '/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
