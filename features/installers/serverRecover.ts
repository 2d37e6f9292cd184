/**
 * Installs and clones run their steps inside the panel (not as one agent op), so a panel that
 * stops mid-way leaves no one to finish or undo them (DESIGN: a task survives a restart,
 * resumed or marked failed, never stuck). Each such task has a row here with its app's name
 * and a heartbeat its runner renews; a task whose heartbeat stopped is failed by whichever
 * panel sweeps next, and the app it was making (with that app's databases) is removed.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { now } from '../../server/db/database';
import { backgroundContext } from '../../server/http/backgroundContext';
import { removeAppWithDatabases } from './serverApp';
import { wordsOf } from './serverSteps';

interface AppTasksTable {
  task_id: number;
  server_id: number;
  /** The name of the app the task makes: unique on its server, so found after a restart too. */
  app_name: string;
  beat_at: string;
}

declare module '../../server/db/schema' {
  interface Database {
    app_tasks: AppTasksTable;
  }
}

export const appTasksMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_tasks')
      .addColumn('task_id', 'integer', (c) =>
        c.primaryKey().references('tasks.id').onDelete('cascade'),
      )
      .addColumn('server_id', 'integer', (c) => c.notNull())
      .addColumn('app_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('beat_at', 'varchar(40)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('app_tasks').execute();
  },
};

/** How often a runner says it is alive, and how long a silent one is waited for. */
export const BEAT_MS = 15_000;
export const STOPPED_AFTER_MS = 60_000;

/**
 * Records that this panel runs the task and keeps its heartbeat until the returned function
 * is called (when the steps end, however they end).
 */
export async function holdTask(
  app: FastifyInstance,
  task: { id: number; serverId: number; appName: string },
): Promise<() => Promise<void>> {
  await app.db
    .insertInto('app_tasks')
    .values({ task_id: task.id, server_id: task.serverId, app_name: task.appName, beat_at: now() })
    .execute();
  const beat = setInterval(() => {
    void app.db
      .updateTable('app_tasks')
      .set({ beat_at: now() })
      .where('task_id', '=', task.id)
      .execute()
      .catch(() => undefined);
  }, BEAT_MS);
  beat.unref();
  return async () => {
    clearInterval(beat);
    await app.db.deleteFrom('app_tasks').where('task_id', '=', task.id).execute();
  };
}

/**
 * Fails the tasks whose runner stopped (no heartbeat for `stoppedAfterMs`) and removes the app
 * each was making. A task is claimed by one panel only: the update from running to failed is
 * the claim.
 */
export async function recoverStoppedTasks(
  app: FastifyInstance,
  stoppedAfterMs = STOPPED_AFTER_MS,
): Promise<number> {
  const before = new Date(Date.now() - stoppedAfterMs).toISOString();
  const stopped = await app.db
    .selectFrom('app_tasks')
    .innerJoin('tasks', 'tasks.id', 'app_tasks.task_id')
    .select(['tasks.id', 'tasks.user_id', 'app_tasks.server_id', 'app_tasks.app_name'])
    .where('tasks.status', '=', 'running')
    .where('app_tasks.beat_at', '<', before)
    .execute();
  let recovered = 0;
  for (const task of stopped) {
    const claimed = await app.db
      .updateTable('tasks')
      .set({ status: 'failed', updated_at: now() })
      .where('id', '=', task.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    recovered++;
    const { tasks } = app.services;
    const last = (await tasks.events(task.id)).at(-1)?.code ?? 0;
    await tasks.addEvent(task.id, 'The panel stopped while this ran (it restarted)', last);
    try {
      const ctx = await backgroundContext(app, task.user_id, task.server_id, 'task recovery');
      const made = ctx
        ? await app.db
            .selectFrom('webapps')
            .select('id')
            .where('server_id', '=', task.server_id)
            .where('name', '=', task.app_name)
            .executeTakeFirst()
        : undefined;
      if (ctx && made) await removeAppWithDatabases(ctx, made.id);
      await tasks.addEvent(task.id, 'Everything the install made is removed again', last);
    } catch (error) {
      await tasks.addEvent(
        task.id,
        `Could not remove web app ${task.app_name}: ${wordsOf(error)}`,
        last,
      );
    }
    await app.db.deleteFrom('app_tasks').where('task_id', '=', task.id).execute();
  }
  return recovered;
}
