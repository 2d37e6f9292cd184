/**
 * phpMyAdmin as a web app of the server (webapp_type 'phpmyadmin', made by the one-click
 * installer) and its one-time sign-in link (spec `GET phpmyadmin-login/servers/{sid}/users/{uid}`,
 * issue 11): the panel asks the agent for a temporary MariaDB account with exactly the chosen
 * database user's grants and a token good for one use in about a minute; the link opens
 * phpMyAdmin signed in through its signon handoff (research/hosting.md 2.2).
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { dbUserName } from '../databases/api';
import { installAnswer, installAppName, installBase, installUi } from '../installers/api';
import { webRoot } from '../webapps/api';
import { SSO_TOKEN, TEMP_ACCOUNT } from './config';

export const pmaLoginQuery = z.object({
  /** The id of one of this server's database users (panel rows, `dbusers`). */
  dbuser: z.coerce
    .number({ message: 'The id of a database user of this server' })
    .int('The id of a database user of this server')
    .positive('The id of a database user of this server'),
});

export const pmaLoginAnswer = z.object({
  /** Opens phpMyAdmin signed in, once, until `expires_at`. */
  url: z.string(),
  expires_at: z.string(),
});

const server = 'servers/{sid}/users/{uid}';

export const phpmyadminLogin = defineResource({
  name: 'phpmyadmin-login',
  label: 'phpMyAdmin sign-in',
  parent: 'server',
  schema: pmaLoginAnswer,
  paths: {},
  ops: {},
  actions: {
    login: {
      method: 'GET',
      path: `phpmyadmin-login/${server}`,
      guard: 'self',
      changesState: true,
      summary:
        "A one-time link (about a minute) that opens the server's phpMyAdmin signed in as a temporary account with the chosen database user's grants (`?dbuser=<id>`)",
      query: pmaLoginQuery,
      loads: { dbuser: { of: 'dbusers', missing: 'No database user #{dbuser} on this server' } },
      response: pmaLoginAnswer,
    },
  },
});

/**
 * phpMyAdmin one-click install (spec `POST phpmyadmin/servers/{sid}/users/{uid}`, page
 * /install-phpmyadmin/{id}): a new web app holding the catalogue's phpMyAdmin, made the app's
 * own by pma.configure. Its users sign in with their database users, or through the panel's
 * one-time link; there is no admin login to show.
 */
export const phpmyadminInstaller = defineResource({
  name: 'phpmyadmin-install',
  label: 'phpMyAdmin',
  parent: 'server',
  schema: installAnswer,
  input: installBase,
  paths: { list: `phpmyadmin/${server}` },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install phpMyAdmin on a new web app from the catalogue's release, signing in by database user or the panel's one-time link; follow the task's events",
      response: installAnswer,
    },
  },
  ui: {
    formFields: [...installUi.fields],
    widgets: installUi.widgets,
    labels: installUi.labels,
    help: installUi.help,
  },
});

export const resources = {
  'phpmyadmin-login': phpmyadminLogin,
  'phpmyadmin-install': phpmyadminInstaller,
};

const appArgs = { user: systemUserName, app: installAppName, web_root: webRoot };

export const ops = {
  /**
   * Makes the unpacked phpMyAdmin of an app its own: its config.inc.php (a generated blowfish
   * secret, cookie login, signon only while the panel's sign-in cookie is present) in the
   * app's private folder, the app copy's vendor_config.php pointed at it, and the signon
   * script stackdeck-sso.php in the web root. All written as the app's user.
   */
  'pma.configure': op(
    z.object(appArgs),
    z.object({ version: z.string(), config: z.string() }),
    120_000,
  ),
  /**
   * A temporary MariaDB account with exactly `db_user`'s grants, alive `account_ttl` seconds,
   * and a one-time token (good for `ttl` seconds) in the app's private folder that hands it to
   * phpMyAdmin. Expired temporary accounts of every app are dropped first.
   */
  'pma.signon': op(
    z.object({
      ...appArgs,
      db_user: dbUserName,
      ttl: z.number().int().min(5).max(600),
      account_ttl: z.number().int().min(5).max(86_400),
    }),
    z.object({
      token: z.string().regex(SSO_TOKEN),
      account: z.string().regex(TEMP_ACCOUNT),
      expires_at: z.string(),
      dropped: z.number().int(),
    }),
  ),
};
