import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { OpArgs, OpName } from '../../resources/agent/ops';
import type { OpDone, OpProgress, OpReply } from '../../resources/agent/protocol';
import { AgentOfflineError, AgentOpError, AgentTimeoutError, type OrphanOps } from '../agents/hub';
import type { ServerRow } from '../db/schema';

/** The message of a failed reply. */
function failureOf(reply: Extract<OpReply, { ok: false }>): string {
  return typeof reply.error === 'string' ? reply.error : reply.error.message;
}

/** Settles a running task with its op's reply: a last event, then completed or failed. */
async function complete(app: FastifyInstance, taskId: number, reply: OpReply): Promise<void> {
  const { tasks } = app.services;
  const task = await tasks.find(taskId);
  if (!task || task.status !== 'running') return;
  if (reply.ok) {
    await tasks.addEvent(taskId, 'Done', 10);
    await tasks.finish(taskId, 'completed');
  } else {
    const last = (await tasks.events(taskId)).at(-1)?.code ?? 0;
    await tasks.addEvent(taskId, failureOf(reply), last);
    await tasks.finish(taskId, 'failed');
  }
}

/**
 * Starts a long op (an install, a certificate, a backup) as a task and answers its id at once:
 * the op's progress becomes the task's ordered events, its reply the task's end. Should the
 * answer not come in time (the op runs on, the connection dropped), the task stays running:
 * the agent sends the reply on its next connection, to this panel or the one that replaced it
 * (see OrphanOps). A task is failed only by the op's own failure, or when its server no longer
 * runs it (reconcileTasks).
 */
export async function runTaskOp<N extends OpName>(
  app: FastifyInstance,
  task: { userId: number; server: ServerRow; kind: string; name: string },
  op: N,
  args: OpArgs<N>,
): Promise<number> {
  const opId = randomUUID();
  const { tasks } = app.services;
  const taskId = await tasks.create({
    userId: task.userId,
    serverId: task.server.id,
    kind: task.kind,
    name: task.name,
    opId,
  });
  // Events are written in arrival order: each waits for the one before.
  let writing = Promise.resolve();
  const record = (progress: OpProgress) => {
    writing = writing.then(() => tasks.addEvent(taskId, progress.event, progress.code));
  };
  void app.agents
    .call(task.server.id, op, args, { opId, onProgress: record })
    .then(
      (data) => writing.then(() => complete(app, taskId, { ok: true, data })),
      async (error: unknown) => {
        await writing;
        if (error instanceof AgentTimeoutError) {
          const last = (await tasks.events(taskId)).at(-1)?.code ?? 0;
          await tasks.addEvent(taskId, 'Waiting for the server to report the end', last);
          return;
        }
        if (error instanceof AgentOfflineError) {
          await complete(app, taskId, { ok: false, error: error.message });
          return;
        }
        const message = error instanceof AgentOpError ? error.message : 'The work failed';
        if (!(error instanceof AgentOpError)) app.log.error({ err: error, op }, 'task op failed');
        await complete(app, taskId, { ok: false, error: message });
      },
    )
    .catch((err: unknown) => app.log.error({ err, taskId }, 'settling a task failed'));
  return taskId;
}

/**
 * Steps and replies of ops no call on this panel waits for (started before a restart, or by
 * another panel): recorded on the server's task that runs the op.
 */
export function taskOrphans(app: FastifyInstance): OrphanOps {
  const { tasks } = app.services;
  return {
    progress(serverId: number, progress: OpProgress) {
      void tasks
        .runningByOp(serverId, progress.opId)
        .then((task) => task && tasks.addEvent(task.id, progress.event, progress.code))
        .catch(() => undefined);
    },
    done(serverId: number, done: OpDone) {
      void tasks
        .runningByOp(serverId, done.opId)
        .then((task) => task && complete(app, task.id, done.reply as OpReply))
        .catch(() => undefined);
    },
  };
}

/**
 * When a server's agent connects: its running tasks whose op the agent no longer runs (it
 * restarted, the machine rebooted) and whose reply did not arrive within `graceMs` (replies
 * buffered by the agent come first) are failed, saying why. The others go on.
 */
export async function reconcileTasks(
  app: FastifyInstance,
  serverId: number,
  graceMs = 3000,
): Promise<void> {
  const { tasks } = app.services;
  if (!(await tasks.runningOps(serverId)).length) return;
  const { ops } = await app.agents.call(serverId, 'agent.running', {});
  await new Promise((r) => setTimeout(r, graceMs));
  for (const task of await tasks.runningOps(serverId)) {
    if (task.op_id && !ops.includes(task.op_id)) {
      await complete(app, task.id, {
        ok: false,
        error: 'The server stopped this work before it ended (the agent or the machine restarted)',
      });
    }
  }
}
