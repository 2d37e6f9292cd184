/**
 * Nextcloud one-click install (issue 11, spec `POST nextcloud/servers/{sid}/users/{uid}`, page
 * /install-nextcloud/{id}): a new web app, its database and user, the catalogue's release, then
 * Nextcloud's own installer, `occ maintenance:install`, as the app's user, its data folder
 * outside the web root.
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
} from '../installers/api';
import { domainName, phpVersion, webRoot } from '../webapps/api';

export const nextcloudInstallInput = installBase.extend(adminFields);

export const nextcloudInstaller = defineResource({
  name: 'nextcloud-install',
  label: 'Nextcloud',
  parent: 'server',
  schema: installAnswer,
  input: nextcloudInstallInput,
  paths: { list: 'nextcloud/servers/{sid}/users/{uid}' },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install Nextcloud on a new web app: its database and user, the catalogue's release, `occ maintenance:install`; follow the task's events",
      response: installAnswer,
    },
  },
  ui: {
    formFields: [...installUi.fields, ...adminUi.fields],
    widgets: { ...installUi.widgets, ...adminUi.widgets },
    labels: { ...installUi.labels, ...adminUi.labels },
    help: { ...installUi.help, ...adminUi.help },
  },
});

export const resources = { 'nextcloud-install': nextcloudInstaller };

export const ops = {
  /** Puts the release in place and runs `occ maintenance:install` as the app's user. */
  'nextcloud.install': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      web_root: webRoot,
      php_version: phpVersion,
      domain: domainName,
      db_name: databaseName,
      db_user: dbUserName,
      db_password: dbPassword,
      admin_user: adminUserName,
      admin_email: adminEmail,
      admin_password: adminPassword,
    }),
    z.object({ data_dir: z.string() }),
    600_000,
  ),
};
