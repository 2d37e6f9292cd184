import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { sha256 } from '../auth/hash';
import { notFound } from '../http/errors';
import { agentBundle, installScript } from './installScript';

const keyParams = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

/**
 * What a server being installed talks to, before it has an agent key: the script, its progress
 * events, and the agent's credentials. All of it works only while the install key does.
 */
export default fp(async function installRoutes(app: FastifyInstance) {
  const serverOf = async (key: string) => {
    const server = await app.services.servers.findByInstallKey(key);
    if (!server) throw notFound('This install link is no longer valid');
    return server;
  };

  app.get('/install/:key', { schema: { params: keyParams } }, async (req, reply) => {
    const { key } = req.params as z.infer<typeof keyParams>;
    await serverOf(key);
    // Without a built agent the script still answers, and stops at once saying why: a failed
    // download piped into bash would run nothing and say nothing.
    const bundle = await agentBundle(app.config.agentBundle);
    return reply
      .type('text/x-shellscript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(installScript(app.config.publicUrl, key, bundle?.sha256 ?? null));
  });

  app.post(
    '/install/:key/events',
    {
      schema: {
        params: keyParams,
        body: z.object({
          event: z.string().min(1).max(500),
          code: z.number().int().min(-1).max(10),
        }),
      },
    },
    async (req, reply) => {
      const { key } = req.params as z.infer<typeof keyParams>;
      const { event, code } = req.body as { event: string; code: number };
      const server = await serverOf(key);
      await app.services.serverLog.addEvent(server.id, event, code);
      return reply.code(204).send();
    },
  );

  /** A new agent key each time: only the agent installed last can connect. */
  app.post('/install/:key/credentials', { schema: { params: keyParams } }, async (req, reply) => {
    const { key } = req.params as z.infer<typeof keyParams>;
    const server = await serverOf(key);
    const agentKey = randomBytes(32).toString('base64url');
    await app.services.servers.update(server.id, { agent_key_hash: sha256(agentKey) });
    return reply
      .header('cache-control', 'no-store')
      .send({ panel_url: app.config.publicUrl, key: agentKey });
  });

  app.get('/agent/stackdeck-agent.mjs', async (_req, reply) => {
    const bundle = await agentBundle(app.config.agentBundle);
    if (!bundle) {
      return reply.code(503).send({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The agent is not built: run npm run build',
      });
    }
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(bundle.bytes);
  });
});
