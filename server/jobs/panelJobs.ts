import { z } from 'zod';
import { sweepConnected } from '../managed/sweeper';
import { defineJob, defineSchedule } from './define';

/** The longest op waits 3 minutes: an entry or row still pending after 5 lost its answer. */
const STALE_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The sweeper: server activity entries that never got their answer are failed, and the
 * server-managed rows of connected servers left pending are asked for again
 * (server/managed/sweeper.ts). Once a minute on one panel, whichever takes the slot: the rows
 * are in the shared database and ops reach an agent through any panel.
 */
export const sweepJob = defineJob({
  name: 'panel.sweep',
  payload: z.object({}),
  // The next minute's run is the retry.
  retry: { limit: 0, backoffSeconds: 1 },
  timeoutSeconds: 10 * 60,
  concurrency: 1,
  async handler(ctx) {
    await ctx.app.services.serverLog.failStale(STALE_MS);
    await sweepConnected(ctx.app, STALE_MS);
  },
});

/**
 * Old records of the job platform: finished jobs of the SQLite queue after 7 days (failed ones
 * after 30), schedule slots after 30 days, idempotency keys after 90. pg-boss prunes its own.
 */
export const pruneJob = defineJob({
  name: 'jobs.prune',
  payload: z.object({}),
  retry: { limit: 2, backoffSeconds: 60 },
  concurrency: 1,
  async handler(ctx) {
    const { db } = ctx.app;
    const now = ctx.app.services.clock();
    const before = (days: number) => new Date(now - days * DAY_MS).toISOString();
    await db
      .deleteFrom('jobs')
      .where((w) =>
        w.or([
          w.and([w('state', '=', 'done'), w('finished_at', '<', before(7))]),
          w.and([w('state', '=', 'failed'), w('finished_at', '<', before(30))]),
        ]),
      )
      .execute();
    await db.deleteFrom('schedule_slots').where('slot', '<', before(30)).execute();
    await db.deleteFrom('job_keys').where('created_at', '<', before(90)).execute();
  },
});

export const panelJobs = [sweepJob, pruneJob];

export const panelSchedules = [
  defineSchedule({ name: 'panel.sweep', cron: '* * * * *', job: sweepJob, payload: {} }),
  defineSchedule({ name: 'jobs.prune', cron: '30 3 * * *', job: pruneJob, payload: {} }),
];
