import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built SPA. Hashed assets are cached for a year; any other GET that accepts HTML
 * gets index.html (history fallback); API paths and the rest answer a JSON 404.
 */
export default fp(async function spaPlugin(app: FastifyInstance) {
  const root = app.config.webDir;
  const index = root ? path.join(root, 'index.html') : null;
  const hasUi = Boolean(index && fs.existsSync(index));
  if (!hasUi) app.log.warn({ webDir: root }, 'no built UI found; run `npm run build` to serve it');
  if (hasUi && root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const wantsPage =
      hasUi &&
      req.method === 'GET' &&
      !req.url.startsWith('/api/') &&
      String(req.headers.accept).includes('text/html');
    if (wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });
});
