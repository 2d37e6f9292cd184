import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { installWithDatabase, randomFrom, randomSuffix, stepOp } from '../installers/serverApi';
import { joomlaInstaller } from './resource';

const handlers = defineHandlers(joomlaInstaller, {
  actions: {},
  /** `POST joomla/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body;
    return installWithDatabase(ctx, {
      type: 'joomla',
      label: 'Joomla',
      dbPrefix: 'jm',
      body,
      loginUrl: (domain) => `http://${domain}/administrator/`,
      install: ({ app, taskId }, db, password) =>
        stepOp(ctx, taskId, 'joomla.install', {
          user: app.sys_user,
          app: app.name,
          web_root: app.web_root,
          php_version: app.php_version ?? body.php_version,
          title: body.title,
          db_name: db.name,
          db_user: db.name,
          db_password: db.password,
          db_prefix: `${randomFrom('abcdefghijklmnopqrstuvwxyz', 1)}${randomSuffix(3)}_`,
          admin_user: body.admin_user,
          admin_email: body.admin_email,
          admin_password: password,
        }),
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
