import { z } from 'zod';
import { defineServerFeature } from '../../server/feature';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import { appTasksMigration, recoverStoppedTasks } from './serverRecover';

/**
 * Installs and clones whose panel stopped: failed, and what they made removed. Every minute
 * on one panel, and when a panel starts.
 */
const recoverJob = defineJob({
  name: 'installers.recover',
  payload: z.object({}),
  retry: { limit: 0, backoffSeconds: 1 },
  timeoutSeconds: 10 * 60,
  concurrency: 1,
  handler: (ctx) => recoverStoppedTasks(ctx.app),
});

/**
 * The installers' own panel part: no routes (each app's folder has its own), the record of
 * which panel runs which install or clone, and the job that undoes those a stopped panel left.
 */
export const server = defineServerFeature({
  handlers: [],
  migrations: { '0026_app_tasks': appTasksMigration },
  jobs: [recoverJob],
  schedules: [
    defineSchedule({
      name: 'installers.recover',
      cron: '* * * * *',
      job: recoverJob,
      payload: {},
      atStart: true,
    }),
  ],
});
