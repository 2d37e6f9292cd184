import type { FastifyInstance } from 'fastify';
import { PgBossJobStore } from './pgBossRunner';
import { PanelJobQueue } from './queue';
import type { JobRegistry } from './registry';
import { Scheduler } from './scheduler';
import { SqliteJobStore } from './sqliteRunner';

/** How long a stopping panel waits for the runs under way before it closes the database. */
export const STOP_GRACE_MS = 5000;

/**
 * The queue of the panel's database (the SQLite table, or pg-boss on PostgreSQL), its workers
 * and the scheduler. Built with the app; started when it is ready, stopped before it closes.
 */
export function startJobs(app: FastifyInstance, registry: JobRegistry) {
  const store =
    app.dialect === 'postgres' && app.config.databaseUrl
      ? new PgBossJobStore(app.config.databaseUrl, () => app.services.clock(), app.log)
      : new SqliteJobStore(app.db, () => app.services.clock());
  const queue = new PanelJobQueue(app, store, registry);
  const scheduler = new Scheduler(app, queue, registry);
  let started = false;
  return {
    queue,
    scheduler,
    async start() {
      await queue.start();
      started = true;
      await scheduler.start();
    },
    async stop() {
      if (!started) return;
      await scheduler.stop();
      await queue.stop(STOP_GRACE_MS);
    },
  };
}
