/**
 * WordPress one-click install (issue 11, spec `POST wordpress/servers/{sid}/users/{uid}`): a new
 * web app of the server, its database and database user, the release from the catalogue, and
 * WordPress's own installer run as the app's user, as a task whose events the page and the
 * messages panel follow. The admin login is in the answer, once.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { databaseName, dbPassword, dbUserName } from '../databases/api';
import {
  adminEmail,
  adminPassword,
  adminUserName,
  installAnswer,
  installAppName,
  installBase,
  installUi,
  siteTitle,
} from '../installers/api';
import { phpVersion, webRoot } from '../webapps/api';
import { SALT, TABLE_PREFIX } from './config';

export const wordpressInstallInput = installBase.extend({
  title: siteTitle,
  admin_user: adminUserName,
  admin_email: adminEmail,
  /** Generated when not given. */
  admin_password: adminPassword.optional(),
  /** Search engines may index the site. */
  public: z.boolean().default(true),
});

const server = 'servers/{sid}/users/{uid}';

export const wordpressInstaller = defineResource({
  name: 'wordpress-install',
  label: 'WordPress',
  parent: 'server',
  schema: installAnswer,
  input: wordpressInstallInput,
  paths: { list: `wordpress/${server}` },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install WordPress on a new web app: its database and user, the catalogue's release, the admin login (answered once); follow the task's events",
      response: installAnswer,
    },
  },
  ui: {
    formFields: [
      ...installUi.fields,
      'title',
      'admin_user',
      'admin_email',
      'admin_password',
      'public',
    ],
    widgets: { ...installUi.widgets, admin_password: { kind: 'password', length: 20 } },
    labels: {
      ...installUi.labels,
      title: 'Site title',
      admin_user: 'Admin user name',
      admin_email: 'Admin mail address',
      admin_password: 'Admin password',
      public: 'Search engines may index the site',
    },
    help: {
      ...installUi.help,
      admin_password: 'Shown once more when the install starts: keep it',
    },
  },
});

export const resources = { 'wordpress-install': wordpressInstaller };

export const ops = {
  /**
   * Puts the unpacked release (`<app>/.stackdeck-release/<top folder>`) in place as the web
   * root, writes wp-config.php, and runs WordPress's own installer (wp_install) with PHP's CLI
   * as the app's user; the admin's password reaches it on standard input, never in argv.
   */
  'wordpress.install': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      web_root: webRoot,
      php_version: phpVersion,
      url: z.string().regex(/^https?:\/\/[a-z0-9.-]+$/),
      db_name: databaseName,
      db_user: dbUserName,
      db_password: dbPassword,
      table_prefix: z.string().regex(TABLE_PREFIX),
      salts: z.array(z.string().regex(SALT)).length(8),
      title: siteTitle,
      admin_user: adminUserName,
      admin_email: adminEmail,
      admin_password: adminPassword,
      public: z.boolean(),
    }),
    z.object({ version: z.string(), user_id: z.number().int() }),
    300_000,
  ),
  /**
   * A clone's wp-config.php (as its user): its own database, account and new keys; the
   * addresses in the database were rewritten by clone.database.
   */
  'wordpress.rewire': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      web_root: webRoot,
      databases: z
        .array(z.object({ from: databaseName, to: databaseName }))
        .min(1)
        .max(10),
      db_user: dbUserName,
      db_password: dbPassword,
      salts: z.array(z.string().regex(SALT)).length(8),
    }),
    z.object({ rewired: z.literal(true) }),
  ),
};
