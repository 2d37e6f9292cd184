import type { FastifyInstance } from 'fastify';
import type { After } from '../events/types';

declare module '../events/types' {
  interface PanelEvents {
    /**
     * A task (a deploy, an install, a clone, a certificate, a long job) ended in failure
     * (committed): `error` is its last step's words, the failure's message. Errors are logged.
     */
    'task.failed': After<{
      task: { id: number; userId: number; serverId: number | null; kind: string; name: string };
      error: string | null;
    }>;
  }
}

/**
 * Raises `task.failed` for every task that ends failed, whoever ends it (the op's reply, the
 * installers' steps, the git deploy, the job worker): they all end it through TaskRepository.
 */
export function raiseTaskFailures(app: FastifyInstance): void {
  app.services.tasks.onEnd(async (task) => {
    if (task.status !== 'failed') return;
    const last = (await app.services.tasks.events(task.id)).at(-1);
    const { status: _status, ...rest } = task;
    await app.events.emit('task.failed', { task: rest, error: last?.event ?? null });
  });
}
