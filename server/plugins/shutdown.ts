import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Graceful shutdown: requests already in flight when `close()` starts get their answer with
 * `Connection: close`, so their keep-alive connections end with them. Without it Node reaps only
 * the connections idle at that moment, and a browser's open connection holds the exit back
 * until the client drops it.
 */
export default fp(async function shutdownPlugin(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
});
