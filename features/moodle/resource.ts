/**
 * Moodle one-click install (issue 11, spec `POST moodle/servers/{sid}/users/{uid}`, page
 * /install-moodle/{id}): a new web app, its database and user, the catalogue's release, then
 * Moodle's own `admin/cli/install.php` as the app's user, its data folder outside the web root.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { databaseName, dbPassword, dbUserName } from '../databases/api';
import {
  adminEmail,
  adminFields,
  adminPassword,
  adminUi,
  adminUserName,
  installAnswer,
  installAppName,
  installBase,
  installUi,
  siteTitle,
} from '../installers/api';
import { phpVersion, webRoot } from '../webapps/api';

/** Moodle's short name of the site: a word. */
const shortName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,29}$/, 'One word: letters, digits, _ and - (at most 30)');

export const moodleInstallInput = installBase.extend({
  title: siteTitle,
  short_name: shortName,
  ...adminFields,
});

export const moodleInstaller = defineResource({
  name: 'moodle-install',
  label: 'Moodle',
  parent: 'server',
  schema: installAnswer,
  input: moodleInstallInput,
  paths: { list: 'moodle/servers/{sid}/users/{uid}' },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install Moodle on a new web app: its database and user, the catalogue's release, `admin/cli/install.php`; follow the task's events",
      response: installAnswer,
    },
  },
  ui: {
    formFields: [...installUi.fields, 'title', 'short_name', ...adminUi.fields],
    widgets: { ...installUi.widgets, ...adminUi.widgets },
    labels: {
      ...installUi.labels,
      title: 'Site full name',
      short_name: 'Site short name',
      ...adminUi.labels,
    },
    help: { ...installUi.help, ...adminUi.help },
  },
});

export const resources = { 'moodle-install': moodleInstaller };

export const ops = {
  /** Puts the release in place and runs Moodle's CLI installer as the app's user. */
  'moodle.install': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      web_root: webRoot,
      php_version: phpVersion,
      url: z.string().regex(/^https?:\/\/[a-z0-9.-]+$/),
      title: siteTitle,
      short_name: shortName,
      db_name: databaseName,
      db_user: dbUserName,
      db_password: dbPassword,
      admin_user: adminUserName,
      admin_email: adminEmail,
      admin_password: adminPassword,
    }),
    z.object({ data_dir: z.string() }),
    900_000,
  ),
};
