import type { OpArgs, OpName, OpResult } from '../../resources/agent/ops';
import type { OpProgress } from '../../resources/agent/protocol';
import type { HandlerContext } from '../../server/http/handlers';
import type { WebappRow } from '../webapps/serverApi';

/**
 * An op of an install step: its progress events become the task's events, in order, before
 * the step goes on.
 */
export async function stepOp<N extends OpName>(
  ctx: HandlerContext,
  taskId: number,
  name: N,
  args: OpArgs<N>,
  /** The task's codes the op's own 0..10 map onto (a clone's copy is 3..6 of the whole). */
  scale: readonly [number, number] = [0, 10],
): Promise<OpResult<N>> {
  const { tasks } = ctx.app.services;
  let writing = Promise.resolve();
  const [low, high] = scale;
  const onProgress = (p: OpProgress) => {
    const code = Math.round(low + ((high - low) * p.code) / 10);
    writing = writing.then(() => tasks.addEvent(taskId, p.event, code));
  };
  try {
    return await ctx.app.agents.call(ctx.server.id, name, args, { onProgress });
  } finally {
    await writing;
  }
}

/** The app's folder on its server, as the web apps make it. */
export const appPath = (app: WebappRow) => `/home/${app.sys_user}/apps/${app.name}`;
