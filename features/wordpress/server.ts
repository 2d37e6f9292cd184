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
import { generatedPassword, generatedSalt, randomSuffix } from '../installers/serverSecrets';
import { type wordpressInstallInput, wordpressInstaller } from './resource';

type Body = z.output<typeof wordpressInstallInput>;

const handlers = defineHandlers(wordpressInstaller, {
  actions: {},
  /**
   * `POST wordpress/servers/{sid}/users/{uid}`: answers 202 with the task once the app is made;
   * the database, its user, the download and WordPress's own install follow as steps.
   */
  async create(ctx) {
    const body = ctx.body as Body;
    const dbName = await freeDatabaseName(ctx, 'wp', body.name);
    const dbPassword = generatedPassword(32);
    const password = body.admin_password ?? generatedPassword(20);
    const url = `http://${body.domains[0]}`;
    const { name, domains, sys_user, php_version, stack_type } = body;
    return startInstall(ctx, {
      type: 'wordpress',
      name: `WordPress on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version, stack_type },
      done: 'WordPress is installed',
      login: { url: `${url}/wp-login.php`, user: body.admin_user, password },
      steps: ({ app, release, taskId }) => [
        ...databaseSteps(ctx, app, dbName, dbPassword),
        fetchStep(ctx, { app, release, taskId }, 'WordPress'),
        {
          event: 'Installing WordPress',
          code: 6,
          run: async () =>
            void (await stepOp(ctx, taskId, 'wordpress.install', {
              user: app.sys_user,
              app: app.name,
              web_root: app.web_root,
              php_version: app.php_version ?? php_version,
              url,
              db_name: dbName,
              db_user: dbName,
              db_password: dbPassword,
              table_prefix: `wp_${randomSuffix(5)}_`,
              salts: Array.from({ length: 8 }, generatedSalt),
              title: body.title,
              admin_user: body.admin_user,
              admin_email: body.admin_email,
              admin_password: password,
              public: body.public,
            })),
        },
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
