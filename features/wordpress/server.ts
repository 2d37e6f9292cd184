import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { generatedSalt, installWithDatabase, randomSuffix, stepOp } from '../installers/serverApi';
import { wordpressInstaller } from './resource';

const handlers = defineHandlers(wordpressInstaller, {
  actions: {},
  /**
   * `POST wordpress/servers/{sid}/users/{uid}`: answers 202 with the task once the app is made;
   * the database, its user, the download and WordPress's own install follow as steps.
   */
  async create(ctx) {
    const body = ctx.body;
    const url = `http://${body.domains[0]}`;
    return installWithDatabase(ctx, {
      type: 'wordpress',
      label: 'WordPress',
      dbPrefix: 'wp',
      body,
      loginUrl: () => `${url}/wp-login.php`,
      install: ({ app, taskId }, db, password) =>
        stepOp(ctx, taskId, 'wordpress.install', {
          user: app.sys_user,
          app: app.name,
          web_root: app.web_root,
          php_version: app.php_version ?? body.php_version,
          url,
          db_name: db.name,
          db_user: db.name,
          db_password: db.password,
          table_prefix: `wp_${randomSuffix(5)}_`,
          salts: Array.from({ length: 8 }, generatedSalt),
          title: body.title,
          admin_user: body.admin_user,
          admin_email: body.admin_email,
          admin_password: password,
          public: body.public,
        }),
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
