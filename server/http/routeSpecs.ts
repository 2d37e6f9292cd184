/** What a declaration's operations become as routes (mount.ts hands them to Fastify). */
import { z } from 'zod';
import {
  type ActionDef,
  type HttpMethod,
  type OperationDef,
  type ResourceDef,
  listQuery,
  listResponse,
} from '../../resources/define';
import type { BoundHandlers, HandlerContext } from './handlers';

/** `tickets.ticket` -> `{ tickets: { ticket: data } }`: where the spec fixes a list's shape. */
function nestAt(path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<
    string,
    unknown
  >;
}

function nestedSchema(path: string, leaf: z.ZodType): z.ZodObject {
  const keys = path.split('.');
  return keys.reduceRight<z.ZodType>(
    (inner, key) => z.object({ [key]: inner }),
    leaf,
  ) as z.ZodObject;
}

/** One route of a declaration, with its schemas, status and the handler that serves it. */
export interface RouteSpec {
  op: string;
  method: HttpMethod;
  template: string;
  def: OperationDef;
  schema: {
    querystring?: z.ZodType;
    body?: z.ZodType;
    response?: Record<number, z.ZodType>;
  };
  status: number;
  bodyLimit?: number;
  rawBody?: boolean;
  run: (ctx: HandlerContext<unknown, unknown>) => Promise<unknown>;
}

/**
 * The routes a declaration and its handlers make: one per declared operation, each with the
 * schemas Fastify validates and documents; a declared operation without a handler throws.
 */
export function routesOf(bound: BoundHandlers): RouteSpec[] {
  const { resource: r, handlers: h } = bound;
  const need = (op: string): ((ctx: HandlerContext<unknown, unknown>) => Promise<unknown>) => {
    const fn = op.startsWith('action:') ? h.actions?.[op.slice(7)] : h[op as 'list'];
    if (typeof fn !== 'function')
      throw new Error(`${r.name}: "${op}" is declared but has no handler`);
    return fn as (ctx: HandlerContext<unknown, unknown>) => Promise<unknown>;
  };
  const specs: RouteSpec[] = [];
  const { list, get, create, update, delete: del } = r.ops;
  const input = r.input ?? r.schema;

  if (list) {
    const filters = list.filters ?? z.object({});
    const sortable = list.sort ?? [];
    const page = listResponse(r.schema);
    const run = need('list');
    specs.push({
      op: 'list',
      method: 'GET',
      template: r.paths.list!,
      def: list,
      status: 200,
      schema: {
        querystring: listQuery
          .extend({
            sort: z.enum(sortable.length ? (sortable as [string, ...string[]]) : ['id']).optional(),
          })
          .extend(filters.shape),
        response: {
          200: list.dataKey
            ? nestedSchema(list.dataKey, page.shape.data).extend({ total: page.shape.total })
            : page,
        },
      },
      run: list.dataKey
        ? async (ctx) => {
            const result = (await run(ctx)) as { data: unknown[]; total: number };
            return { ...nestAt(list.dataKey!, result.data), total: result.total };
          }
        : run,
    });
  }
  if (get) {
    specs.push({
      op: 'get',
      method: 'GET',
      template: r.paths.one!,
      def: get,
      status: 200,
      schema: { querystring: get.query, response: { 200: get.response ?? r.schema } },
      run: need('get'),
    });
  }
  if (create) {
    specs.push({
      op: 'create',
      method: 'POST',
      template: r.paths.list!,
      def: create,
      status: 201,
      bodyLimit: create.bodyLimit,
      schema: {
        body: create.body ?? input,
        querystring: create.query,
        // 200: a create overloaded by a query that makes nothing new (`svjobs?rebuild=true`).
        response: {
          200: create.response ?? r.schema,
          201: create.response ?? r.schema,
          202: create.response ?? r.schema,
        },
      },
      run: need('create'),
    });
  }
  if (update) {
    specs.push({
      op: 'update',
      method: update.method ?? 'PUT',
      template: r.paths.one!,
      def: update,
      status: 200,
      schema: {
        body: update.body ?? input.partial(),
        querystring: update.query,
        response: { 200: update.response ?? r.schema, 202: update.response ?? r.schema },
      },
      run: need('update'),
    });
  }
  if (del) {
    specs.push({
      op: 'delete',
      method: 'DELETE',
      template: r.paths.one!,
      def: del,
      status: 200,
      schema: {
        querystring: del.query,
        response: {
          200: del.response ?? deleted(r),
          202: del.response ?? deleted(r),
        },
      },
      run: need('delete'),
    });
  }
  for (const [name, action] of Object.entries<ActionDef>(r.actions ?? {})) {
    const status = action.status ?? 200;
    specs.push({
      op: `action:${name}`,
      method: action.method,
      template: action.path,
      def: action,
      status,
      bodyLimit: action.bodyLimit,
      rawBody: action.rawBody,
      schema: {
        querystring: action.query,
        body: action.body,
        response: action.response ? { [status]: action.response } : undefined,
      },
      run: need(`action:${name}`),
    });
  }
  return specs;
}

/** A delete's answer: the id, and what the record says of itself (a row still `deleting`). */
const deleted = (r: ResourceDef) =>
  r.schema
    .partial()
    .extend({ id: z.union([z.number(), z.string()]), status: z.string().optional() });
