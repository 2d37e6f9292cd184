/**
 * The step that gives a Node.js app (an install or a copy) its port: what the server listens on
 * is read just before, the database claims the port (serverPorts.ts), the undo frees it. Kept
 * apart from serverPorts.ts, which the web apps read and which must not reach the installers.
 */
import type { HandlerContext } from '../../server/http/handlers';
import { type Step, stepOp } from '../installers/serverApi';
import type { WebappRow } from '../webapps/serverApi';
import { allocatePort, freePort } from './serverPorts';

export function portStep(
  ctx: HandlerContext,
  app: WebappRow,
  taskId: number,
  words: { event: string; whose: string; code: number },
  claimed: (port: number) => void,
): Step {
  return {
    event: words.event,
    code: words.code,
    run: async () => {
      const { ports } = await stepOp(ctx, taskId, 'node.ports', {});
      const port = await allocatePort(ctx.app.db, ctx.server.id, app.id, ports);
      claimed(port);
      await ctx.app.services.tasks.addEvent(taskId, `Port ${port} is ${words.whose}`, words.code);
    },
    undo: () => freePort(ctx.app.db, app.id),
  };
}
