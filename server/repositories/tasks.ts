import type { Clone } from '../../resources/clone-events';
import type { ListQuery } from '../../resources/define';
import type { Db } from '../db/database';
import { now } from '../db/database';
import type { TasksTable } from '../db/schema';
import type { TaskChange, TaskListener } from '../tasks/taskPush';
import { pageOf } from './paging';

/** Long work (clones, installs, backups) and its ordered events. */
export interface NewTask {
  userId: number;
  serverId?: number | null;
  /** What the work is: `clone`, `install`, `backup`... */
  kind: string;
  name: string;
  /** The agent op it runs (progress and late replies find the task by it). */
  opId?: string;
}

/** A task that just ended, as `onEnd` hands it on. */
export interface EndedTask {
  id: number;
  userId: number;
  serverId: number | null;
  kind: string;
  name: string;
  status: Exclude<TasksTable['status'], 'running'>;
}

export class TaskRepository {
  private readonly listeners = new Set<TaskListener>();
  private readonly ends = new Set<(task: EndedTask) => Promise<void>>();

  constructor(private readonly db: Db) {}

  /** Called after each event and end is written (the push to the browsers); returns the stop. */
  onChange(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Called, and awaited, after a task's end is written (the panel raises `task.failed` from it,
   * server/tasks/taskEvents.ts); a failing listener does not fail the finish. Returns the stop.
   */
  onEnd(listener: (task: EndedTask) => Promise<void>): () => void {
    this.ends.add(listener);
    return () => void this.ends.delete(listener);
  }

  private changed(change: TaskChange) {
    // A listener's failure must not fail the work whose progress it reports.
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        /* the listener logs its own errors */
      }
    }
  }

  /** A task starts running. */
  async create(task: NewTask): Promise<number> {
    const stamp = now();
    const row = await this.db
      .insertInto('tasks')
      .values({
        user_id: task.userId,
        server_id: task.serverId ?? null,
        kind: task.kind,
        name: task.name.slice(0, 200),
        status: 'running',
        op_id: task.opId ?? null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** One step of the work; events keep the order they were added in. */
  async addEvent(taskId: number, event: string, code: number): Promise<void> {
    const stamp = now();
    const text = event.slice(0, 500);
    await this.db
      .insertInto('task_events')
      .values({ task_id: taskId, event: text, code, created_at: stamp })
      .execute();
    const task = await this.db
      .updateTable('tasks')
      .set({ updated_at: stamp })
      .where('id', '=', taskId)
      .returning(['user_id', 'kind', 'status'])
      .executeTakeFirst();
    if (task)
      this.changed({
        id: taskId,
        userId: task.user_id,
        kind: task.kind,
        status: task.status,
        event: text,
        code,
      });
  }

  async finish(taskId: number, status: Exclude<TasksTable['status'], 'running'>): Promise<void> {
    const task = await this.db
      .updateTable('tasks')
      .set({ status, updated_at: now() })
      .where('id', '=', taskId)
      .returning(['user_id', 'kind', 'server_id', 'name'])
      .executeTakeFirst();
    if (!task) return;
    this.changed({
      id: taskId,
      userId: task.user_id,
      kind: task.kind,
      status,
      event: null,
      code: null,
    });
    const ended = {
      id: taskId,
      userId: task.user_id,
      serverId: task.server_id,
      kind: task.kind,
      name: task.name,
      status,
    };
    for (const listener of this.ends) await listener(ended).catch(() => undefined);
  }

  /** The running task of a server that runs this op, if any. */
  runningByOp(serverId: number, opId: string) {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('op_id', '=', opId)
      .where('status', '=', 'running')
      .executeTakeFirst();
  }

  /** The server's running tasks that run an agent op. */
  runningOps(serverId: number) {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('status', '=', 'running')
      .where('op_id', 'is not', null)
      .execute();
  }

  find(taskId: number) {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  }

  /** A task's events in order. */
  events(taskId: number) {
    return this.db
      .selectFrom('task_events')
      .select(['event', 'code'])
      .where('task_id', '=', taskId)
      .orderBy('id', 'asc')
      .execute();
  }

  /** A user's tasks of these kinds (`id`: one of them), newest first, each with its events. */
  async listWithEvents(
    userId: number,
    kinds: readonly Clone['kind'][],
    query: ListQuery & { id?: number },
  ): Promise<{ data: Clone[]; total: number }> {
    let rows = this.db
      .selectFrom('tasks')
      .select(['id', 'kind', 'name', 'status', 'created_at'])
      .where('user_id', '=', userId)
      .where('kind', 'in', kinds);
    if (query.id !== undefined) rows = rows.where('id', '=', query.id);
    const page = await pageOf(rows, query, ['created_at']);
    const ids = page.data.map((t) => t.id);
    const events = ids.length
      ? await this.db
          .selectFrom('task_events')
          .select(['task_id', 'event', 'code'])
          .where('task_id', 'in', ids)
          .orderBy('id', 'asc')
          .execute()
      : [];
    return {
      total: page.total,
      data: page.data.map((task) => ({
        ...task,
        kind: task.kind as Clone['kind'],
        events: events
          .filter((e) => e.task_id === task.id)
          .map(({ event, code }) => ({ event, code })),
      })),
    };
  }
}
