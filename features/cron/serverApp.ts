import { HttpError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { converge } from '../../server/managed/converge';
import { ManagedStore } from '../../server/managed/store';
import type { Step } from '../installers/serverApi';
import { cronJobInput } from './resource';
import { type CronJobRow, checkUser, columns, cronKind } from './serverKind';

/**
 * An app's own cron jobs (Nextcloud's background job, Moodle's cron): rows of the cron feature
 * like a user's, with the app's id, so the agent writes them the usual way, the cron page lists
 * them, and the app's delete takes them (and only them) out of its user's crontab.
 */

/** The app as its cron jobs need it: whose crontab, and what to call it in messages. */
export interface AppRef {
  id: number;
  name: string;
  sys_user: string;
}

export interface AppCronJob {
  label: string;
  schedule: string;
  command: string;
}

/** The PHP CLI of a PHP version, as the installers run it (features/installers/agentSteps.ts). */
export const phpCli = (version: string) => `/usr/bin/php${version}`;

const store = (ctx: HandlerContext) => new ManagedStore<CronJobRow>(ctx.app.db, cronKind.table);

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/**
 * Adds a job to the app's user's crontab, through the same checks as a user's job (the zod
 * allowlist, an active system user). A server that refused it, or went offline meanwhile, is
 * an error: the caller's undo (removeAppCronJobs) takes the row back out.
 */
export async function makeAppCronJob(
  ctx: HandlerContext,
  app: AppRef,
  job: AppCronJob,
): Promise<CronJobRow> {
  const input = cronJobInput.parse({ ...job, sys_user: app.sys_user, enabled: true });
  await checkUser(ctx, input.sys_user);
  const row = await store(ctx).insert(ctx.server.id, { ...columns(input), webapp_id: app.id });
  const result = await converge(ctx.app, ctx.server, cronKind, row, 'apply', {
    message: `Create ${cronKind.noun(row)} (of web app ${app.name})`,
    actorId: actorOf(ctx),
  });
  if (result.state === 'failed') throw result.error;
  if (result.state === 'waiting')
    throw new HttpError(409, 'The server went offline while adding the cron job');
  return result.row;
}

/**
 * Takes every cron job the app made out of its user's crontab (the user's own jobs stay):
 * run on the web app's `app.deleting`, next to its FTP accounts. Offline, they wait (`deleting`)
 * for the sweeper.
 */
export async function removeAppCronJobs(ctx: HandlerContext, app: AppRef): Promise<void> {
  for (const job of await store(ctx).all(ctx.server.id, { webapp_id: app.id })) {
    const marked = await store(ctx).change(job, {}, 'deleting');
    const result = await converge(ctx.app, ctx.server, cronKind, marked, 'remove', {
      message: `Delete ${cronKind.noun(job)} (of web app ${app.name})`,
      actorId: actorOf(ctx),
    });
    if (result.state === 'failed') throw result.error;
  }
}

/**
 * The install step that adds the app's job. Its undo takes out the app's jobs: the app is new,
 * so they are this step's only, and one half-made (refused after its row was written) goes too.
 */
export const appCronStep = (ctx: HandlerContext, app: AppRef, job: AppCronJob, code = 9): Step => ({
  event: `Adding the cron job "${job.label}" (${job.schedule})`,
  code,
  run: async () => void (await makeAppCronJob(ctx, app, job)),
  undo: () => removeAppCronJobs(ctx, app),
});

/** The cron jobs an app made (its clone copies them). */
export const appCronJobs = (ctx: HandlerContext, appId: number) =>
  store(ctx).all(ctx.server.id, { webapp_id: appId });

/**
 * The clone's step that gives the copy its source's cron jobs, each pointing at the copy's
 * folder instead of the source's.
 */
export function copyAppCronJobsStep(
  ctx: HandlerContext,
  jobs: readonly CronJobRow[],
  from: { name: string; path: string },
  copy: AppRef & { path: string },
  code = 9,
): Step {
  return {
    event: `Copying the cron jobs of ${from.name}`,
    code,
    run: async () => {
      for (const job of jobs)
        await makeAppCronJob(ctx, copy, {
          label: job.label,
          schedule: job.schedule,
          command: job.command.split(from.path).join(copy.path),
        });
    },
    undo: () => removeAppCronJobs(ctx, copy),
  };
}
