import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { appCronStep, phpCli } from '../cron/serverApi';
import { installWithDatabase, stepOp } from '../installers/serverApi';
import type { WebappRow } from '../webapps/serverApi';
import { docRoot } from '../webapps/api';
import { nextcloudInstaller } from './resource';

/**
 * Nextcloud's background job, as its admin manual has it ("Background jobs", Cron):
 * `*\/5 * * * * php -f /var/www/nextcloud/cron.php` in the crontab of the user PHP runs as.
 */
export const nextcloudCron = (app: WebappRow, phpVersion: string) => ({
  label: 'Nextcloud background jobs',
  schedule: '*/5 * * * *',
  command: `${phpCli(phpVersion)} -f ${docRoot(`/home/${app.sys_user}`, app)}/cron.php`,
});

const handlers = defineHandlers(nextcloudInstaller, {
  actions: {},
  /** `POST nextcloud/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body;
    return installWithDatabase(ctx, {
      type: 'nextcloud',
      label: 'Nextcloud',
      dbPrefix: 'nc',
      body,
      loginUrl: (domain) => `http://${domain}/`,
      install: ({ app, taskId }, db, password) =>
        stepOp(ctx, taskId, 'nextcloud.install', {
          user: app.sys_user,
          app: app.name,
          web_root: app.web_root,
          php_version: app.php_version ?? body.php_version,
          domain: body.domains[0]!,
          db_name: db.name,
          db_user: db.name,
          db_password: db.password,
          admin_user: body.admin_user,
          admin_email: body.admin_email,
          admin_password: password,
        }),
      // occ background:cron (in the op) told Nextcloud to expect it.
      after: ({ app }) => [
        appCronStep(ctx, app, nextcloudCron(app, app.php_version ?? body.php_version)),
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
