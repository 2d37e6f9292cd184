/**
 * A clone's part for a Node.js app (issue 11): once clone.files has copied the app's folder
 * (its code in `current/`) as the copy's user, the copy gets a port of its own, its own
 * supervisor program (`stackdeck-<copy>`, run as the copy's user, the source's entry file and
 * environment) and then nginx proxying its domain to that port, in the installer's order
 * (server.ts): the port is known before the vhost is rendered again. Each step undoes itself.
 */
import { HttpError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { type Step, stepOp } from '../installers/serverApi';
import { specOf, type WebappRow } from '../webapps/serverApi';
import { portOf } from './serverPorts';
import { portStep } from './serverPortStep';
import { type NodeProgramRecord, programOf, refuseJobName, saveProgram } from './serverProgram';

/**
 * What the copy runs, read before the task starts: the source's entry file and environment.
 * A source installed before the panel kept its program (or without a port) cannot be copied
 * as it runs, and is refused with a 409 rather than failing half-way.
 */
export async function nodeCloneSource(
  ctx: HandlerContext,
  source: WebappRow,
  copyName: string,
): Promise<NodeProgramRecord> {
  const program = await programOf(ctx.app.db, ctx.app.services.box, source.id);
  if (!program || (await portOf(ctx.app.db, source.id)) === null)
    throw new HttpError(
      409,
      `The panel does not know how ${source.name} is started: deploy the copy from its source`,
    );
  await refuseJobName(ctx, copyName);
  return program;
}

/** The steps after the copy's files: its port, its program, nginx at its port. */
export function nodeCloneSteps(
  ctx: HandlerContext,
  program: NodeProgramRecord,
  app: WebappRow,
  taskId: number,
): Step[] {
  let port: number | null = null;
  return [
    portStep(
      ctx,
      app,
      taskId,
      { event: 'Choosing a port for the copy', whose: "the copy's", code: 9 },
      (claimed) => (port = claimed),
    ),
    {
      event: `Starting ${program.entry} of the copy under supervisor`,
      code: 9,
      run: async () => {
        await stepOp(ctx, taskId, 'node.start', {
          user: app.sys_user,
          app: app.name,
          entry: program.entry,
          port: port!,
          env: program.env,
        });
        // What a rebuild of the copy writes its program again from.
        await saveProgram(ctx.app.db, ctx.app.services.box, app.id, program);
      },
      undo: async () => void (await stepOp(ctx, taskId, 'node.remove', { app: app.name })),
    },
    {
      event: 'Pointing nginx at the copy',
      code: 9,
      run: async () =>
        void (await stepOp(ctx, taskId, 'webapp.apply', await specOf(ctx.app.db, app))),
    },
  ];
}
