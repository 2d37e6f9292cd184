import { z } from 'zod';
import { TASK_KINDS } from '../../resources/clone-events';

/** The pure side of the task push (src/live/taskPush.ts): what it accepts and when it refetches. */

/** What the panel pushes (`EVENTS.task`); `event`/`code` are null on the task's end. */
export const taskPushSchema = z.object({
  id: z.number().int().positive(),
  kind: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  event: z.string().nullable(),
  code: z.number().int().nullable(),
});
export type TaskPush = z.infer<typeof taskPushSchema>;

export function parseTaskPush(payload: unknown): TaskPush | null {
  const parsed = taskPushSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

/** clone-events lists clones and installs only: a backup's progress refetches nothing. */
export function listedTask(push: TaskPush): boolean {
  return (TASK_KINDS as readonly string[]).includes(push.kind);
}

/** One trailing call for a burst of calls within `ms` (steps often come back to back). */
export function coalesce(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      run();
    }, ms);
  };
}
