/**
 * Roundcube one-click install (issue 11, spec `POST roundcube/servers/{sid}/users/{uid}`):
 * webmail on a new web app, with its own database, signing in to the server's IMAP and SMTP.
 * Users sign in with their mail accounts: there is no admin login to show.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { databaseName, dbPassword, dbUserName } from '../databases/api';
import {
  installAnswer,
  installAppName,
  installBase,
  installUi,
  siteTitle,
} from '../installers/api';
import { phpVersion } from '../webapps/api';
import { DES_KEY, MAIL_HOST } from './config';
import { SSO_KEY } from './ssoPlugin';
import { roundcubeSso, ssoOps } from './ssoResource';

const mailHost = z
  .string()
  .trim()
  .toLowerCase()
  .regex(MAIL_HOST, 'host:port, with ssl:// or tls:// for encryption (localhost:143)');

export const roundcubeInstallInput = installBase.extend({
  product_name: siteTitle.default('Webmail'),
  imap_host: mailHost.default('localhost:143'),
  // Postfix offers logins on 587 only after STARTTLS (smtpd_tls_auth_only): tls://.
  smtp_host: mailHost.default('tls://localhost:587'),
});

const server = 'servers/{sid}/users/{uid}';

export const roundcubeInstaller = defineResource({
  name: 'roundcube-install',
  label: 'Roundcube',
  parent: 'server',
  schema: installAnswer,
  input: roundcubeInstallInput,
  paths: { list: `roundcube/${server}` },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install Roundcube webmail on a new web app: its database, the catalogue's release, the server's IMAP and SMTP; follow the task's events",
      response: installAnswer,
    },
  },
  ui: {
    formFields: [...installUi.fields, 'product_name', 'imap_host', 'smtp_host'],
    widgets: installUi.widgets,
    labels: {
      ...installUi.labels,
      product_name: 'Name on the sign-in page',
      imap_host: 'IMAP server',
      smtp_host: 'SMTP server',
    },
    help: {
      ...installUi.help,
      sys_user:
        'Give Roundcube a system user of its own: its single sign-on secret opens every mailbox of this server',
      imap_host: 'Where users’ mail is: this server’s own is localhost:143',
      smtp_host: 'Where mail is sent: this server’s own is tls://localhost:587',
    },
  },
});

export const resources = { 'roundcube-install': roundcubeInstaller, 'roundcube-sso': roundcubeSso };

export const ops = {
  /**
   * Puts the unpacked release in place as the app's folder (its public_html served), writes
   * config.inc.php and loads Roundcube's schema with the app's database account; ships the
   * single sign-on plugin with the app's key (as roundcube.sso.set).
   */
  'roundcube.install': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      php_version: phpVersion,
      db_name: databaseName,
      db_user: dbUserName,
      db_password: dbPassword,
      des_key: z.string().regex(DES_KEY),
      imap_host: mailHost,
      smtp_host: mailHost,
      product_name: siteTitle,
      app_id: z.number().int().positive(),
      sso_key: z.string().regex(SSO_KEY),
    }),
    z.object({ version: z.string() }),
    300_000,
  ),
  ...ssoOps,
};
