import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { installWithDatabase, randomFrom, stepOp } from '../installers/serverApi';
import { roundcubeInstaller } from './resource';
import launchRoutes from './serverLaunch';
import { ssoHandlers, ssoKeyOf } from './serverSso';
import { ssoMigration } from './serverSsoTable';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const handlers = defineHandlers(roundcubeInstaller, {
  actions: {},
  /** `POST roundcube/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body;
    return installWithDatabase(ctx, {
      type: 'roundcube',
      label: 'Roundcube',
      dbPrefix: 'rc',
      body,
      webRoot: 'public_html',
      // Users sign in with their mail accounts: no admin login to show.
      loginUrl: null,
      install: async ({ app, taskId }, db) =>
        stepOp(ctx, taskId, 'roundcube.install', {
          user: app.sys_user,
          app: app.name,
          php_version: app.php_version ?? body.php_version,
          db_name: db.name,
          db_user: db.name,
          db_password: db.password,
          des_key: randomFrom(ALNUM, 24),
          imap_host: body.imap_host,
          smtp_host: body.smtp_host,
          product_name: body.product_name,
          app_id: app.id,
          sso_key: await ssoKeyOf(ctx.app, app),
        }),
    });
  },
});

export const server = defineServerFeature({
  migrations: { '0058_roundcube_sso': ssoMigration },
  handlers: [handlers, ssoHandlers],
  routes: launchRoutes,
});
