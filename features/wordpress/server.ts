import type { z } from 'zod';
import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { makeDatabase, makeDbUser, removeDatabase, removeDbUser } from '../installers/serverApp';
import { appPath, freeDatabaseName, startInstall, stepOp } from '../installers/serverRun';
import { generatedPassword, generatedSalt, randomSuffix } from '../installers/serverSecrets';
import type { DatabaseRow, DbUserRow } from '../databases/server';
import { fetchUrlOf } from '../releases/server';
import { RELEASE_DIR, type wordpressInstallInput, wordpressInstaller } from './resource';

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
    let database: DatabaseRow | undefined;
    let dbUser: DbUserRow | undefined;
    return startInstall(ctx, {
      type: 'wordpress',
      name: `WordPress on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version, stack_type },
      done: 'WordPress is installed',
      login: { url: `${url}/wp-login.php`, user: body.admin_user, password },
      steps: ({ app, release, taskId }) => [
        {
          event: `Creating the database ${dbName}`,
          code: 2,
          run: async () => void (database = await makeDatabase(ctx, app, dbName)),
          undo: async () => database && (await removeDatabase(ctx, database.id)),
        },
        {
          event: `Creating the database user ${dbName}`,
          code: 3,
          run: async () =>
            void (dbUser = await makeDbUser(ctx, app, dbName, dbPassword, [database!.id])),
          undo: async () => dbUser && (await removeDbUser(ctx, dbUser.id)),
        },
        {
          event: `Downloading WordPress ${release.version}`,
          code: 4,
          run: async () =>
            void (await stepOp(ctx, taskId, 'release.fetch', {
              url: await fetchUrlOf(ctx.app.db, release),
              sha256: release.sha256,
              format: release.format,
              dest_user: app.sys_user,
              dest_dir: `${appPath(app)}/${RELEASE_DIR}`,
            })),
        },
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
