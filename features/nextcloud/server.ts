import type { z } from 'zod';
import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { installWithDatabase, stepOp } from '../installers/serverRun';
import { type nextcloudInstallInput, nextcloudInstaller } from './resource';

const handlers = defineHandlers(nextcloudInstaller, {
  actions: {},
  /** `POST nextcloud/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body as z.output<typeof nextcloudInstallInput>;
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
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
