import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas?: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  };
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
  op: string;
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
        op: 'list',
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
        op: 'get',
        method: 'get',
        template: one,
        def: get,
        query: Object.keys(get.query?.shape ?? {}),
        status: 200,
      });
    if (create)
      out.push({
        name: `${r.name}.create`,
        op: 'create',
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
        op: 'update',
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
        op: 'delete',
        method: 'delete',
        template: one,
        def: del,
        query: Object.keys(del.query?.shape ?? {}),
        status: 200,
      });
    for (const [name, a] of Object.entries<ActionDef>(r.actions ?? {})) {
      out.push({
        name: `${r.name}.${name}`,
        op: `action:${name}`,
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

    if (d.body instanceof z.ZodUnion) {
      // A body of alternatives (a storage added, or removed) documents each of them.
      const schema = op!.requestBody?.content['application/json'].schema as
        { anyOf?: unknown[]; oneOf?: unknown[] } | undefined;
      expect(schema?.anyOf ?? schema?.oneOf).toHaveLength(d.body.options.length);
    } else if (d.body) {
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

  /** The client errors each operation can answer, from its guard and what it validates. */
  function expectedErrors(d: Declared): string[] {
    const codes = new Set<string>();
    if (d.body || d.query.length) codes.add('400');
    if (d.def.guard !== 'public') codes.add('401');
    if (
      d.def.guard === 'staff' ||
      d.def.guard === 'admin' ||
      d.def.forbidWhileActing ||
      d.def.ownerOnly
    )
      codes.add('403');
    // Ids in the path, or a user named in the query (`admin/users?uid`): a foreign or unknown one.
    if (templateParams(d.template).length || d.query.includes('uid')) codes.add('404');
    if (d.def.rateLimited) codes.add('429');
    return [...codes].sort();
  }

  it.each(declared())('$name: documents its client errors with the one error body', (d) => {
    const op = doc.paths[`/api/v1/${d.template}`]![d.method]!;
    const errors = Object.keys(op.responses).filter((code) => code.startsWith('4'));
    expect(errors.sort()).toEqual(expectedErrors(d));
    for (const code of errors) {
      const ref = (op.responses[code] as { $ref?: string }).$ref;
      expect(ref, `${d.name} ${code}`).toMatch(/^#\/components\/responses\//);
      const answer = doc.components.responses?.[ref!.split('/').pop()!];
      expect(answer?.content?.['application/json']?.schema?.$ref).toBe(
        '#/components/schemas/Error',
      );
    }
  });

  it('declares the error body once, as the panel writes it', async () => {
    const error = doc.components.schemas?.Error;
    expect(Object.keys(error?.properties ?? {}).sort()).toEqual([
      'error',
      'errors',
      'message',
      'statusCode',
    ]);
    expect(error?.required?.sort()).toEqual(['error', 'message', 'statusCode']);
    // What a client gets on a validation error has exactly that shape.
    const res = await t.call('POST', '/api/v1/users/login', { body: {} });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['error', 'errors', 'message', 'statusCode']);
  });

  it('names the panel it is served from', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: t.config.publicUrl })]);
  });

  it("passes Redocly CLI's recommended rules, offline", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      fs.writeFileSync(file, JSON.stringify(doc));
      const root = process.cwd();
      const run = await promisify(execFile)(
        process.execPath,
        [
          path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
          'lint',
          `--config=${path.join(root, 'redocly.yaml')}`,
          '--format=json',
          file,
        ],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            // Any network attempt fails at once instead of leaving the test waiting.
            HTTPS_PROXY: 'http://127.0.0.1:9',
            HTTP_PROXY: 'http://127.0.0.1:9',
          },
          maxBuffer: 64 * 1024 * 1024,
        },
      ).catch((error: { stdout: string; stderr: string; code: number }) => error);
      const report = JSON.parse(run.stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems.map(
        (p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
      );
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

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
