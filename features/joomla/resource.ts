/**
 * Joomla one-click install (issue 11, spec `POST joomla/servers/{sid}/users/{uid}`, page
 * /install-joomla/{id}): a new web app, its database and user, the catalogue's release, then
 * Joomla's own command-line installer (`installation/joomla.php install`, Joomla 4.3 and later)
 * as the app's user; the installation folder is removed after.
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

export const joomlaInstallInput = installBase.extend({ title: siteTitle, ...adminFields });

export const joomlaInstaller = defineResource({
  name: 'joomla-install',
  label: 'Joomla',
  parent: 'server',
  schema: installAnswer,
  input: joomlaInstallInput,
  paths: { list: 'joomla/servers/{sid}/users/{uid}' },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install Joomla on a new web app: its database and user, the catalogue's release, Joomla's CLI installer; follow the task's events",
      response: installAnswer,
    },
  },
  ui: {
    formFields: [...installUi.fields, 'title', ...adminUi.fields],
    widgets: { ...installUi.widgets, ...adminUi.widgets },
    labels: { ...installUi.labels, title: 'Site name', ...adminUi.labels },
    help: { ...installUi.help, ...adminUi.help },
  },
});

export const resources = { 'joomla-install': joomlaInstaller };

/** Joomla's table prefix: random per site. */
export const JOOMLA_PREFIX = /^[a-z][a-z0-9]{3}_$/;

export const ops = {
  /** Puts the release in place, runs Joomla's CLI installer and removes `installation/`. */
  'joomla.install': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      web_root: webRoot,
      php_version: phpVersion,
      title: siteTitle,
      db_name: databaseName,
      db_user: dbUserName,
      db_password: dbPassword,
      db_prefix: z.string().regex(JOOMLA_PREFIX),
      admin_user: adminUserName,
      admin_email: adminEmail,
      admin_password: adminPassword,
    }),
    z.object({ installed: z.literal(true) }),
    600_000,
  ),
};
