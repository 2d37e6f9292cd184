import { loadedChild } from '../../server/http/handlers';
import type { Db } from '../../server/db/database';
import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { cronjobs, withScheduleText } from './resource';
import {
  type CronJobRow,
  appMigration,
  checkUser,
  columns,
  cronKind,
  migration,
} from './serverKind';
import { appCronJobs, copyAppCronJobsStep, removeAppCronJobs } from './serverApp';
import { appPath } from '../installers/serverApi';

export type { CronJobRow } from './serverKind';

const recordOf = (row: CronJobRow, webappName: string | null) =>
  withScheduleText({ ...row, enabled: Boolean(row.enabled), webapp_name: webappName });

/** The names of the apps that made jobs of the page: one query for the whole list. */
async function appNames(db: Db, rows: CronJobRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.webapp_id === null ? [] : [r.webapp_id])))];
  if (!ids.length) return new Map();
  const apps = await db
    .selectFrom('webapps')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .execute();
  return new Map(apps.map((a) => [a.id, a.name]));
}

export const server = defineServerFeature({
  migrations: { '0009_cron': migration, '0024_app_cron': appMigration },
  async usersOf(db, serverId, userName) {
    const jobs = await db
      .selectFrom('cronjobs')
      .select(['id', 'label'])
      .where('server_id', '=', serverId)
      .where('sys_user', '=', userName)
      .execute();
    return jobs.map((j) => `cron job ${j.label ? `"${j.label}"` : `#${j.id}`}`);
  },
  managed: [cronKind],
  on: {
    /** An app's own jobs (features/cron/serverApp.ts) leave its user's crontab before it goes. */
    'app.deleting': ({ ctx, app }) => removeAppCronJobs(ctx, app),
    /** A clone gets the source's jobs (Nextcloud's, Moodle's), pointed at its own folder. */
    async 'app.cloning'({ ctx, source, addSteps }) {
      const jobs = await appCronJobs(ctx, source.id);
      if (!jobs.length) return;
      addSteps(({ copy }) => [
        copyAppCronJobsStep(
          ctx,
          jobs,
          { name: source.name, path: appPath(source) },
          { ...copy, path: appPath(copy) },
        ),
      ]);
    },
  },
  handlers: [
    defineManagedHandlers(cronjobs, cronKind, {
      async create(ctx, body) {
        await checkUser(ctx, body.sys_user);
        return columns(body);
      },
      async update(ctx, body, row) {
        await checkUser(ctx, body.sys_user);
        // Another user: the job leaves the old user's crontab first.
        if (body.sys_user !== row.sys_user && row.status === 'active') {
          await readOp(ctx, 'cron.remove', { id: row.id, sys_user: row.sys_user });
        }
        return columns(body);
      },
      record: (row) => recordOf(row, null),
      records: async (ctx, rows) => {
        const names = await appNames(ctx.app.db, rows);
        return rows.map((row) => recordOf(row, names.get(row.webapp_id ?? 0) ?? null));
      },
      actions: {
        async run(ctx) {
          const row = loadedChild(ctx.child);
          return runOp(ctx, `Run ${cronKind.noun(row)} now`, 'cron.run', {
            sys_user: row.sys_user,
            command: row.command,
          });
        },
      },
      where: (query): Record<string, string> =>
        typeof query.sys_user === 'string' ? { sys_user: query.sys_user } : {},
    }),
  ],
});
