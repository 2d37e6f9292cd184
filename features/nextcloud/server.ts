import type { z } from 'zod';
import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import {
  databaseSteps,
  fetchStep,
  freeDatabaseName,
  startInstall,
  stepOp,
} from '../installers/serverRun';
import { generatedPassword } from '../installers/serverSecrets';
import { type nextcloudInstallInput, nextcloudInstaller } from './resource';

type Body = z.output<typeof nextcloudInstallInput>;

const handlers = defineHandlers(nextcloudInstaller, {
  actions: {},
  /** `POST nextcloud/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body as Body;
    const dbName = await freeDatabaseName(ctx, 'nc', body.name);
    const dbPassword = generatedPassword(32);
    const password = body.admin_password ?? generatedPassword(20);
    const { name, domains, sys_user, php_version, stack_type } = body;
    return startInstall(ctx, {
      type: 'nextcloud',
      name: `Nextcloud on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version, stack_type },
      done: 'Nextcloud is installed',
      login: { url: `http://${domains[0]}/`, user: body.admin_user, password },
      steps: ({ app, release, taskId }) => [
        ...databaseSteps(ctx, app, dbName, dbPassword),
        fetchStep(ctx, { app, release, taskId }, 'Nextcloud'),
        {
          event: 'Installing Nextcloud',
          code: 6,
          run: async () =>
            void (await stepOp(ctx, taskId, 'nextcloud.install', {
              user: app.sys_user,
              app: app.name,
              web_root: app.web_root,
              php_version: app.php_version ?? php_version,
              domain: domains[0]!,
              db_name: dbName,
              db_user: dbName,
              db_password: dbPassword,
              admin_user: body.admin_user,
              admin_email: body.admin_email,
              admin_password: password,
            })),
        },
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
