import type { Case } from '../validation.test';
import { app } from './webapps.cases';

type Fixture = Parameters<NonNullable<Case['params']>>[0];
/** The app and a WordPress user id (checked on the server, after the input). */
const appUser = async (f: Fixture) => ({ ...(await app(f)), wpUserId: 1 });

/** Bad input to the WordPress manager: each field refused at its name, before the server. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/wp-manager/general/servers/:sid/users/:uid',
    as: 'user',
    // A malformed `?wsid=` is as missing as a stranger's app (404); none at all is a 400.
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: 'PATCH /api/v1/wp-manager/general/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&type=colour',
    body: { value: 'A title' },
    errors: { type: /./ },
    params: app,
  },
  {
    route: 'PATCH /api/v1/wp-manager/general/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&type=title',
    body: { value: { nested: true } },
    errors: { value: /./ },
    params: app,
  },
  {
    route: 'GET /api/v1/wp-manager/users/servers/:sid/users/:uid',
    as: 'user',
    // A malformed `?wsid=` is as missing as a stranger's app (404); none at all is a 400.
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: 'POST /api/v1/wp-manager/users/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { login: 'a b', email: 'nobody', role: 'Boss!', password: 'short' },
    errors: {
      login: /Letters/,
      email: /mail address/,
      role: /WordPress role/,
      password: /12 characters/,
    },
    params: app,
  },
  {
    route: 'PATCH /api/v1/wp-manager/users/:wpUserId/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: {},
    errors: { role: /role or a password/ },
    params: appUser,
  },
  {
    route: 'DELETE /api/v1/wp-manager/users/:wpUserId/servers/:sid/users/:uid',
    as: 'user',
    query: '',
    errors: { wsid: /./ },
    params: appUser,
  },
  {
    route: 'GET /api/v1/wp-manager/plugins/servers/:sid/users/:uid',
    as: 'user',
    // A malformed `?wsid=` is as missing as a stranger's app (404); none at all is a 400.
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: 'PATCH /api/v1/wp-manager/plugins/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&plugin=../../wp-config.php&action=explode',
    errors: { plugin: /plugin/, action: /./ },
    params: app,
  },
  {
    route: 'DELETE /api/v1/wp-manager/plugins/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&plugin=/etc/passwd',
    errors: { plugin: /plugin/ },
    params: app,
  },
  {
    route: 'PATCH /api/v1/wp/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { file_name: 'plugin.tar.gz', zip: 'not base64!' },
    errors: { file_name: /zip/, zip: /base64/ },
    params: app,
  },
];
