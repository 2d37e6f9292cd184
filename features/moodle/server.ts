import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { appCronStep, phpCli } from '../cron/serverApi';
import { installWithDatabase, stepOp } from '../installers/serverApi';
import type { WebappRow } from '../webapps/serverApi';
import { docRoot } from '../webapps/api';
import { moodleInstaller } from './resource';

/**
 * Moodle's cron, as its docs have it ("Cron"): every minute,
 * `/usr/bin/php /path/to/moodle/admin/cli/cron.php >/dev/null`, as the user PHP runs as.
 */
export const moodleCron = (app: WebappRow, phpVersion: string) => ({
  label: 'Moodle cron',
  schedule: '* * * * *',
  command: `${phpCli(phpVersion)} ${docRoot(`/home/${app.sys_user}`, app)}/admin/cli/cron.php >/dev/null`,
});

const handlers = defineHandlers(moodleInstaller, {
  actions: {},
  /** `POST moodle/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body;
    const url = `http://${body.domains[0]}`;
    return installWithDatabase(ctx, {
      type: 'moodle',
      label: 'Moodle',
      dbPrefix: 'md',
      body,
      loginUrl: () => `${url}/login/index.php`,
      install: ({ app, taskId }, db, password) =>
        stepOp(ctx, taskId, 'moodle.install', {
          user: app.sys_user,
          app: app.name,
          web_root: app.web_root,
          php_version: app.php_version ?? body.php_version,
          url,
          title: body.title,
          short_name: body.short_name,
          db_name: db.name,
          db_user: db.name,
          db_password: db.password,
          admin_user: body.admin_user,
          admin_email: body.admin_email,
          admin_password: password,
        }),
      after: ({ app }) => [
        appCronStep(ctx, app, moodleCron(app, app.php_version ?? body.php_version)),
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
