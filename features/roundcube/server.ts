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
import { generatedPassword, randomFrom } from '../installers/serverSecrets';
import { type roundcubeInstallInput, roundcubeInstaller } from './resource';

type Body = z.output<typeof roundcubeInstallInput>;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const handlers = defineHandlers(roundcubeInstaller, {
  actions: {},
  /** `POST roundcube/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body as Body;
    const dbName = await freeDatabaseName(ctx, 'rc', body.name);
    const dbPassword = generatedPassword(32);
    const { name, domains, sys_user, php_version, stack_type } = body;
    return startInstall(ctx, {
      type: 'roundcube',
      name: `Roundcube on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version, stack_type },
      webRoot: 'public_html',
      done: 'Roundcube is installed',
      login: null,
      steps: ({ app, release, taskId }) => [
        ...databaseSteps(ctx, app, dbName, dbPassword),
        fetchStep(ctx, { app, release, taskId }, 'Roundcube'),
        {
          event: 'Installing Roundcube',
          code: 6,
          run: async () =>
            void (await stepOp(ctx, taskId, 'roundcube.install', {
              user: app.sys_user,
              app: app.name,
              php_version: app.php_version ?? php_version,
              db_name: dbName,
              db_user: dbName,
              db_password: dbPassword,
              des_key: randomFrom(ALNUM, 24),
              imap_host: body.imap_host,
              smtp_host: body.smtp_host,
              product_name: body.product_name,
            })),
        },
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
