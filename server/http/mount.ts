import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { toRoutePattern } from '../../resources/define';
import type { ServerRow } from '../db/schema';
import type { BoundHandlers, HandlerContext } from './handlers';
import { Readable } from 'node:stream';
import { HttpError, notFound } from './errors';
import { actingAs } from './who';
import { appOf, childOf, holderOf, ownedOf, paramsSchema } from './routeParams';
import { bodyIdsOf, queryIdsOf } from './queryIds';
import { routesOf } from './routeSpecs';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as received, on routes declared `rawBody` (a webhook's signed bytes). */
    rawBody?: Buffer;
  }
}

/**
 * A route-level preParsing hook: reads the body (within the route's limit), keeps its bytes on
 * the request and hands the same bytes on to the usual JSON parser.
 */
function keepRawBody(limit: number) {
  return async (req: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > limit) throw new HttpError(413, 'Request body is too large');
      chunks.push(buffer);
    }
    req.rawBody = Buffer.concat(chunks);
    const copy = Readable.from([req.rawBody]) as Readable & { receivedEncodedLength?: number };
    copy.receivedEncodedLength = req.rawBody.length;
    return copy;
  };
}

async function emptyBodyAsObject(req: FastifyRequest) {
  if (req.body === undefined || req.body === null) req.body = {};
}

const SECURED: { [scheme: string]: string[] }[] = [{ bearer: [] }, { apiKey: [], apiSecret: [] }];

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Mounts every operation of every resource under the current prefix: path, method, validation,
 * guard and OpenAPI metadata come from the declaration, the work from its handler.
 */
export function mountResources(app: FastifyInstance, bound: readonly BoundHandlers[]): void {
  for (const entry of bound) {
    for (const spec of routesOf(entry)) {
      const child = childOf(entry.resource, spec.template);
      const parentApp = appOf(entry.resource, spec.template, spec.def);
      const owned = ownedOf(entry.resource, spec.template);
      const holder = holderOf(entry.resource, spec.template);
      const queryIds = queryIdsOf(app, entry.resource, spec.template, spec.def);
      const bodyIds = bodyIdsOf(app, entry.resource, spec.template, spec.op, spec.def);
      const route: RouteOptions = {
        method: spec.method,
        url: `/${toRoutePattern(spec.template)}`,
        ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
        ...(spec.rawBody ? { preParsing: keepRawBody(spec.bodyLimit ?? 1024 * 1024) } : {}),
        // A call sent without a body is validated as `{}`, so the 400 names the missing fields.
        ...(spec.schema.body ? { preValidation: emptyBodyAsObject } : {}),
        config: {
          guard: spec.def.guard,
          forbidWhileActing: spec.def.forbidWhileActing ?? false,
          staffMay: spec.def.staffMay ?? false,
          ownerOnly: spec.def.ownerOnly,
          rateLimited: spec.def.rateLimited ?? false,
          resource: entry.resource.name,
          op: spec.op,
          ...(child ? { child } : {}),
          ...(parentApp ? { app: parentApp } : {}),
          ...(owned ? { owned } : {}),
          ...(holder ? { holder } : {}),
          ...(queryIds ? { queryIds } : {}),
          ...(bodyIds ? { bodyIds } : {}),
        },
        schema: withoutUndefined({
          tags: [entry.resource.label],
          summary: spec.def.summary ?? `${spec.op} ${entry.resource.label}`,
          operationId: `${entry.resource.name}.${spec.op.replace('action:', '')}`,
          security: spec.def.guard === 'public' ? [] : SECURED,
          params: paramsSchema(spec.template, entry.resource.params),
          ...spec.schema,
        }),
        handler: async (req: FastifyRequest, reply: FastifyReply) => {
          // Under `app`, no handler runs without the app the request hook loaded.
          if (parentApp && !req.webapp) throw notFound();
          // Nor with a query id the hook did not load (a value only the validation made).
          const query = (req.query ?? {}) as Record<string, unknown>;
          for (const { param } of queryIds ?? [])
            if (query[param] !== undefined && req.loaded?.[param] === undefined) throw notFound();
          const body = (req.body ?? {}) as Record<string, unknown>;
          for (const { field } of bodyIds ?? [])
            if (body[field] != null && req.loaded?.[field] === undefined) throw notFound();
          // Fastify's HEAD twin of a GET runs the GET's handler: never one that changes state.
          if (req.method === 'HEAD' && spec.def.changesState) {
            reply.header('allow', 'GET');
            throw new HttpError(405, 'HEAD is not allowed here: this call changes state');
          }
          const params = (req.params ?? {}) as Record<string, number | string>;
          // The declared status, which a handler may change (202: accepted, the server applies
          // it when back; 200: a create overloaded by a query that makes nothing new).
          reply.code(spec.status);
          const result = await actingAs(req.caller ?? null, () =>
            spec.run({
              app,
              req,
              reply,
              caller: req.caller,
              params,
              uid: Number(params.uid),
              server: req.managedServer as ServerRow,
              child: req.child,
              within: req.within,
              webapp: req.webapp as HandlerContext['webapp'],
              loaded: req.loaded ?? {},
              query,
              body: req.body,
              origin: {
                ip: req.ip,
                userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512),
              },
            }),
          );
          return result;
        },
      };
      app.route(route);
    }
  }
}
