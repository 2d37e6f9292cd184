/**
 * The WordPress manager (issue 11, spec "WordPress manager" and `wp/webstacks`): a WordPress
 * app's general settings, users and plugins, read and changed on its server through
 * WordPress's own PHP API as the site's user. The app is named by `?wsid=` (or `{appId}`) and
 * must be a WordPress app of the server (409 otherwise).
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { installAppName } from '../installers/api';
import { phpVersion, webRoot } from '../webapps/api';
import {
  GENERAL_VALUES,
  MAX_PLUGIN_ZIP,
  generalSetting,
  pluginAction,
  pluginFile,
  pluginUpload,
  pluginZip,
  wpGeneral,
  wpPluginList,
  wpUser,
  wpUserChange,
  wpUserId,
  wpUserInput,
  wpUserList,
} from './names';

const server = 'servers/{sid}/users/{uid}';
const wsid = z.object({ wsid: z.coerce.number().int().positive() });

export const generalChange = z.object({
  value: z.union([z.string().max(254), z.boolean()]),
});

export const wpmanager = defineResource({
  name: 'wpmanager',
  label: 'WordPress manager',
  parent: 'app',
  // WordPress's own user ids, looked up within the app on its server: no panel rows.
  params: { wpUserId: 'appLocal' },
  schema: wpGeneral.extend({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    general: {
      method: 'GET',
      path: `wp-manager/general/${server}`,
      guard: 'self',
      summary:
        "The site's title, address, admin mail, search-engine visibility, debug, maintenance",
      query: wsid,
      response: wpGeneral,
    },
    setGeneral: {
      method: 'PATCH',
      path: `wp-manager/general/${server}`,
      guard: 'self',
      summary: "Change the one setting `&type=` names to the body's `value`",
      query: wsid.extend({ type: generalSetting }),
      body: generalChange,
      response: wpGeneral,
    },
    users: {
      method: 'GET',
      path: `wp-manager/users/${server}`,
      guard: 'self',
      summary: "The site's users and its roles",
      query: wsid,
      response: wpUserList,
    },
    createUser: {
      method: 'POST',
      path: `wp-manager/users/${server}`,
      guard: 'self',
      summary: 'A new user of the site, with a role and a password (never answered)',
      query: wsid,
      body: wpUserInput,
      response: wpUser,
      status: 201,
    },
    changeUser: {
      method: 'PATCH',
      path: `wp-manager/users/{wpUserId}/${server}`,
      guard: 'self',
      summary: "Change a user's role or password (the last administrator keeps the role)",
      query: wsid,
      body: wpUserChange,
      response: wpUser,
    },
    deleteUser: {
      method: 'DELETE',
      path: `wp-manager/users/{wpUserId}/${server}`,
      guard: 'self',
      summary: 'Delete a user, their posts given to another administrator (never the last one)',
      query: wsid,
      response: z.object({ id: z.number().int(), deleted: z.literal(true) }),
    },
    plugins: {
      method: 'GET',
      path: `wp-manager/plugins/${server}`,
      guard: 'self',
      summary: "The site's plugins: name, version, active or not",
      query: wsid,
      response: wpPluginList,
    },
    switchPlugin: {
      method: 'PATCH',
      path: `wp-manager/plugins/${server}`,
      guard: 'self',
      summary: 'Activate or deactivate the plugin `&plugin=` names (`&action=`)',
      query: wsid.extend({ plugin: pluginFile, action: pluginAction }),
      response: wpPluginList,
    },
    deletePlugin: {
      method: 'DELETE',
      path: `wp-manager/plugins/${server}`,
      guard: 'self',
      summary: 'Delete an inactive plugin and its files',
      query: wsid.extend({ plugin: pluginFile }),
      response: wpPluginList,
    },
    uploadPlugin: {
      method: 'PATCH',
      path: `wp/webstacks/{appId}/${server}`,
      guard: 'self',
      summary:
        "Install or update a plugin of the WordPress app from an uploaded zip (base64): the spec's `wp/webstacks` call; updates from wordpress.org need the internet, which servers here lack",
      body: pluginUpload,
      response: wpPluginList,
      bodyLimit: Math.ceil((MAX_PLUGIN_ZIP * 4) / 3) + 64 * 1024,
    },
  },
});

export const resources = { wpmanager };

/** Where the op finds the site: its user, app folder, web root and PHP. */
const site = z.object({
  user: systemUserName,
  app: installAppName,
  web_root: webRoot,
  php_version: phpVersion,
});

const none = z.object({});
const byId = z.object({ id: wpUserId });
const byPlugin = z.object({ plugin: pluginFile });

/** Each action and what its input must be: nothing else reaches the site's PHP. */
export const wpActionArgs = z.discriminatedUnion('action', [
  site.extend({ action: z.literal('general.read'), input: none }),
  site.extend({
    action: z.literal('general.set'),
    input: z.discriminatedUnion('setting', [
      z.object({ setting: z.literal('title'), value: GENERAL_VALUES.title }),
      z.object({ setting: z.literal('url'), value: GENERAL_VALUES.url }),
      z.object({ setting: z.literal('admin_email'), value: GENERAL_VALUES.admin_email }),
      z.object({ setting: z.literal('public'), value: z.boolean() }),
      z.object({ setting: z.literal('debug'), value: z.boolean() }),
      z.object({ setting: z.literal('maintenance'), value: z.boolean() }),
    ]),
  }),
  site.extend({ action: z.literal('users.list'), input: none }),
  site.extend({ action: z.literal('users.create'), input: wpUserInput }),
  site.extend({
    action: z.literal('users.change'),
    input: byId.extend({
      role: wpUserInput.shape.role.optional(),
      password: wpUserInput.shape.password.optional(),
    }),
  }),
  site.extend({ action: z.literal('users.delete'), input: byId }),
  site.extend({ action: z.literal('plugins.list'), input: none }),
  site.extend({ action: z.literal('plugins.activate'), input: byPlugin }),
  site.extend({ action: z.literal('plugins.deactivate'), input: byPlugin }),
  site.extend({ action: z.literal('plugins.delete'), input: byPlugin }),
  site.extend({ action: z.literal('plugins.upload'), input: z.object({ zip: pluginZip }) }),
]);
export type WpActionArgs = z.infer<typeof wpActionArgs>;
export type WpAction = WpActionArgs['action'];

/** What an action answers: the part it concerns. */
export const wpActionResult = z.object({
  general: wpGeneral.optional(),
  users: wpUserList.shape.users.optional(),
  roles: wpUserList.shape.roles.optional(),
  user: wpUser.optional(),
  plugins: wpPluginList.shape.plugins.optional(),
  deleted: z.number().int().optional(),
});
export type WpActionResult = z.infer<typeof wpActionResult>;

export const ops = {
  /**
   * One action of the WordPress manager, run with PHP's CLI as the site's user loading its
   * wp-load.php; the input (passwords too) on standard input as JSON, never in argv; no HTTP
   * request leaves the site during it.
   */
  'wp.manage': op(wpActionArgs, wpActionResult, 120_000),
};
