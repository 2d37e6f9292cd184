import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServerRow } from '../../db/schema';
import { emit } from '../../events/emit';

/**
 * Removes a server the panel manages: the features let go of what they keep outside its rows
 * (`server.removing`, whose refusal keeps the server), an online agent is asked to remove
 * itself, then the row goes with every row under it. The one way a server leaves the panel:
 * `DELETE servers/{sid}` and the deletion of its owner's account both come here, so no agent
 * keeps running for a server the panel forgot.
 */
export async function removeServer(
  app: FastifyInstance,
  server: ServerRow,
  log: FastifyBaseLogger,
): Promise<void> {
  await emit(app, 'server.removing', { server });
  if (await app.agents.isOnline(server.id)) {
    await app.agents.call(server.id, 'agent.uninstall', {}).catch((err: unknown) => {
      log.warn({ err, serverId: server.id }, 'agent did not confirm its removal');
    });
  }
  app.live.forget(server.id);
  await app.services.servers.delete(server.id);
}
