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
import { generatedPassword, randomFrom, randomSuffix } from '../installers/serverSecrets';
import { type joomlaInstallInput, joomlaInstaller } from './resource';

type Body = z.output<typeof joomlaInstallInput>;

const handlers = defineHandlers(joomlaInstaller, {
  actions: {},
  /** `POST joomla/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body as Body;
    const dbName = await freeDatabaseName(ctx, 'jm', body.name);
    const dbPassword = generatedPassword(32);
    const password = body.admin_password ?? generatedPassword(20);
    const { name, domains, sys_user, php_version, stack_type } = body;
    return startInstall(ctx, {
      type: 'joomla',
      name: `Joomla on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version, stack_type },
      done: 'Joomla is installed',
      login: { url: `http://${domains[0]}/administrator/`, user: body.admin_user, password },
      steps: ({ app, release, taskId }) => [
        ...databaseSteps(ctx, app, dbName, dbPassword),
        fetchStep(ctx, { app, release, taskId }, 'Joomla'),
        {
          event: 'Installing Joomla',
          code: 6,
          run: async () =>
            void (await stepOp(ctx, taskId, 'joomla.install', {
              user: app.sys_user,
              app: app.name,
              web_root: app.web_root,
              php_version: app.php_version ?? php_version,
              title: body.title,
              db_name: dbName,
              db_user: dbName,
              db_password: dbPassword,
              db_prefix: `${randomFrom('abcdefghijklmnopqrstuvwxyz', 1)}${randomSuffix(3)}_`,
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
