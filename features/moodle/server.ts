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
import { type moodleInstallInput, moodleInstaller } from './resource';

type Body = z.output<typeof moodleInstallInput>;

const handlers = defineHandlers(moodleInstaller, {
  actions: {},
  /** `POST moodle/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body as Body;
    const dbName = await freeDatabaseName(ctx, 'md', body.name);
    const dbPassword = generatedPassword(32);
    const password = body.admin_password ?? generatedPassword(20);
    const { name, domains, sys_user, php_version, stack_type } = body;
    const url = `http://${domains[0]}`;
    return startInstall(ctx, {
      type: 'moodle',
      name: `Moodle on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version, stack_type },
      done: 'Moodle is installed',
      login: { url: `${url}/login/index.php`, user: body.admin_user, password },
      steps: ({ app, release, taskId }) => [
        ...databaseSteps(ctx, app, dbName, dbPassword),
        fetchStep(ctx, { app, release, taskId }, 'Moodle'),
        {
          event: 'Installing Moodle',
          code: 6,
          run: async () =>
            void (await stepOp(ctx, taskId, 'moodle.install', {
              user: app.sys_user,
              app: app.name,
              web_root: app.web_root,
              php_version: app.php_version ?? php_version,
              url,
              title: body.title,
              short_name: body.short_name,
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
