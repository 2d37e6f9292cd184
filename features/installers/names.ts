/**
 * What every one-click installer shares (issue 11): the new app's own fields, the answer that
 * shows the admin login once, and the generated secrets' alphabet. Pure: the declarations, the
 * forms and the agent share it.
 */
import { z } from 'zod';
import { systemUserName } from '../../resources/agent/validators';
import { domainList, phpVersion, stackType } from '../webapps/api';

/** The new app's name: its directory, pool and vhost (as a plain web app's). */
export const installAppName = z
  .string()
  .trim()
  .regex(
    /^[a-z][a-z0-9-]{0,39}$/,
    'Lower-case letters, digits and -, starting with a letter (at most 40)',
  );

/** The folder inside the app that release.fetch unpacks into (the installers empty it). */
export const RELEASE_DIR = '.stackdeck-release';

/** The fields of the app an installer makes, as the create-web-app form has them. */
export const installBase = z.object({
  name: installAppName,
  domains: domainList,
  /** The system user the app runs as (an active one of this server; root never). */
  sys_user: systemUserName,
  php_version: phpVersion.default('8.2'),
  stack_type: stackType.default('nginx'),
});

/** An admin login the installer made: shown once, in the answer to the install call. */
export const adminLogin = z.object({
  url: z.string(),
  user: z.string(),
  password: z.string(),
});

/**
 * The answer to an install call: the task to follow (also its `id`: an install is a record the
 * form creates), the app it makes, the login once.
 */
export const installAnswer = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  webapp_id: z.number().int(),
  login: adminLogin.nullable(),
});
export type InstallAnswer = z.infer<typeof installAnswer>;

/** A site administrator's login name (WordPress, Joomla, Moodle, Nextcloud all accept these). */
export const adminUserName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.@-]{2,59}$/, 'Letters, digits and _ . @ - (3 to 60)')
  .refine((n) => !['admin', 'administrator', 'root'].includes(n.toLowerCase()), {
    message: 'Pick a name bots do not try first',
  });

/** An administrator's password, when the user sets one (else one is generated). */
export const adminPassword = z
  .string()
  .min(12, 'At least 12 characters')
  .max(128)
  .regex(/^[^\r\n\0]+$/, 'One line');

/** The admin's mail address. */
export const adminEmail = z
  .string()
  .trim()
  .max(254)
  .email('A mail address such as you@example.com');

/** The site's title as its visitors see it. */
export const siteTitle = z
  .string()
  .trim()
  .min(1, 'Give the site a title')
  .max(100)
  .regex(/^[^\r\n\0<>]+$/, 'One line, without < or >');

/** The installers' form: the new app's fields as the create-web-app form shows them. */
export const installUi = {
  fields: ['name', 'domains', 'sys_user', 'stack_type', 'php_version'],
  widgets: {
    domains: { kind: 'lines' },
    sys_user: {
      kind: 'reference',
      resource: 'sysusers',
      optionText: 'user_name',
      optionValue: 'user_name',
    },
    php_version: {
      kind: 'offered',
      resource: 'webstacks',
      action: 'php',
      optionValue: 'version',
      optionHint: 'from',
    },
  },
  labels: {
    name: 'App name',
    domains: 'Domains',
    sys_user: 'System user',
    stack_type: 'Web stack',
    php_version: 'PHP',
  },
  help: {
    name: 'Lower-case letters, digits and -; the app lives in /home/<user>/apps/<name>',
    domains: 'One per line, the primary first',
    sys_user: 'The app runs as this user and only it can read its files',
    stack_type: 'NGINX plus Apache2 honours .htaccess files',
  },
} as const;

/** The fields of an installer that makes a site administrator (Nextcloud, Joomla, Moodle). */
export const adminFields = {
  admin_user: adminUserName,
  admin_email: adminEmail,
  /** Generated when not given. */
  admin_password: adminPassword.optional(),
};

/** Their form inputs, labels and help. */
export const adminUi = {
  fields: ['admin_user', 'admin_email', 'admin_password'],
  widgets: { admin_password: { kind: 'password', length: 20 } },
  labels: {
    admin_user: 'Admin user name',
    admin_email: 'Admin mail address',
    admin_password: 'Admin password',
  },
  help: { admin_password: 'Shown once more when the install starts: keep it' },
} as const;
