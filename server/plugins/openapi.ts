import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../resources/define';
import { CLIENT_ERRORS, type ClientError, errorBody } from '../http/errors';

interface RouteFlags {
  guard?: Guard;
  forbidWhileActing?: boolean;
  rateLimited?: boolean;
  ownerOnly?: string;
  resource?: string;
  op?: string;
}

/**
 * The client errors a route can answer, read from what it declares: validation of its query
 * or body (400), its guard (401 unless public; 403 where the guard can refuse a signed-in
 * caller), the ids in its path or a `uid` in its query (404: a foreign or unknown id) and the
 * sign-in limiter (429).
 */
export function clientErrorsOf(route: RouteOptions): ClientError[] {
  const flags = (route.config ?? {}) as RouteFlags;
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const codes: ClientError[] = [];
  if (schema.querystring || schema.body) codes.push(400);
  if (flags.guard && flags.guard !== 'public') codes.push(401);
  if (
    flags.guard === 'staff' ||
    flags.guard === 'admin' ||
    flags.forbidWhileActing ||
    flags.ownerOnly
  )
    codes.push(403);
  // A query naming a user (`admin/users?uid`, the spec's spelling) finds them or answers 404.
  const query = schema.querystring;
  const namesUser = query instanceof z.ZodObject && 'uid' in query.shape;
  if (route.url.includes(':') || namesUser) codes.push(404);
  if (flags.rateLimited) codes.push(429);
  return codes;
}

function errorBodySchema(): Record<string, unknown> {
  const json = z.toJSONSchema(errorBody, { io: 'output' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** OpenAPI 3.1 from the resource declarations: JSON at /api/docs/json, the viewer at /api/docs. */
export default fp(async function openapiPlugin(app: FastifyInstance) {
  // operationId -> its client errors, gathered while the document is built.
  const errorsByOperation = new Map<string, ClientError[]>();
  const transform: SwaggerTransform = (input) => {
    const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
    const id = (input.schema as { operationId?: string } | undefined)?.operationId;
    if (id) errorsByOperation.set(id, clientErrorsOf(input.route));
    return out;
  };

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Stackdeck API',
        version: '1',
        description:
          'Every call of the panel. Authenticate with `Authorization: Bearer <Token>` from `POST /api/v1/users/login`, or with the `X-Api-Key` and `X-Api-Secret` headers from `POST /api/v1/auth/gen/users/{uid}`.',
      },
      servers: [{ url: app.config.publicUrl, description: 'This panel (PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          apiSecret: { type: 'apiKey', in: 'header', name: 'X-Api-Secret' },
        },
      },
    },
    stripBasePath: false,
    transform,
    // Every operation's client errors point at one response each, all with the one error body.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const doc = document.openapiObject as {
        components?: Record<string, Record<string, unknown>>;
        paths?: Record<string, Record<string, { operationId?: string; responses?: object }>>;
      };
      const components = (doc.components ??= {});
      (components.schemas ??= {}).Error = errorBodySchema();
      const responses = (components.responses ??= {});
      for (const { name, description } of Object.values(CLIENT_ERRORS)) {
        responses[name] = {
          description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
      }
      for (const item of Object.values(doc.paths ?? {})) {
        for (const operation of Object.values(item)) {
          const codes = errorsByOperation.get(operation.operationId ?? '') ?? [];
          const answers = (operation.responses ??= {}) as Record<string, unknown>;
          for (const code of codes)
            answers[code] = { $ref: `#/components/responses/${CLIENT_ERRORS[code].name}` };
        }
      }
      return document.openapiObject;
    },
    hideUntagged: true,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
