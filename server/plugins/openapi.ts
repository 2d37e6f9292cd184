import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI 3.1 from the resource declarations: JSON at /api/docs/json, the viewer at /api/docs. */
export default fp(async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Stackdeck API',
        version: '1',
        description:
          'Every call of the panel. Authenticate with `Authorization: Bearer <Token>` from `POST /api/v1/users/login`, or with the `X-Api-Key` and `X-Api-Secret` headers from `POST /api/v1/auth/gen/users/{uid}`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          apiSecret: { type: 'apiKey', in: 'header', name: 'X-Api-Secret' },
        },
      },
    },
    transform: jsonSchemaTransform,
    hideUntagged: true,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
