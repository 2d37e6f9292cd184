import { ManagedStore } from '../../../server/managed/store';
import type { Case } from '../validation.test';

type Fixture = Parameters<NonNullable<Case['params']>>[0];

/** A web app row on the user's server (the request hook loads `{appId}` before the body). */
export const app = async ({ t, serverId }: Fixture) => {
  const name = `v${Math.random().toString(36).slice(2, 10)}`;
  const row = await new ManagedStore(t.app.db, 'webapps').insert(serverId, {
    name,
    webapp_type: 'custom',
    stack_type: 'nginx',
    php_version: '8.2',
    domains: JSON.stringify([`${name}.example`]),
    web_root: 'public',
    php_settings: '{}',
    sys_user: 'alice',
    parent_id: null,
  });
  return { appId: row.id };
};

/** Bad input on web apps and an app's databases: names, domains, paths, settings, queries. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/webstacks/servers/:sid/users/:uid',
    as: 'user',
    query: '?parent_id=abc&sync=maybe',
    errors: { parent_id: /./, sync: /./ },
  },
  {
    route: 'POST /api/v1/webstacks/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'My App',
      domains: ['ok.example', 'bad;name.example'],
      web_root: '../etc',
      stack_type: 'lighttpd',
      sys_user: 'root',
      php_settings: { memory_limit: '256M;' },
    },
    errors: {
      name: /Lower-case/,
      'domains.1': /A domain such as/,
      web_root: /./,
      stack_type: /./,
      sys_user: /reserved/,
      'php_settings.memory_limit': /A size/,
    },
  },
  {
    route: 'PATCH /api/v1/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { php_version: '8', domains: [] },
    errors: { php_version: /PHP version/, domains: /Give the app a domain/ },
    params: app,
  },
  {
    route: 'DELETE /api/v1/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?children=perhaps',
    errors: { children: /./ },
    params: app,
  },
  {
    route: 'POST /api/v1/webstacks/php/servers/:sid/users/:uid',
    as: 'user',
    body: { version: 'latest' },
    errors: { version: /PHP version/ },
  },
  {
    route: 'GET /api/v1/a-record-validation/servers/:sid/users/:uid',
    as: 'user',
    query: '',
    errors: { domain: /./ },
  },
  {
    route: 'GET /api/v1/webstackdb/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?page=0',
    errors: { page: /./ },
    params: app,
  },
  {
    route: 'POST /api/v1/webstackdb/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'a-b' },
    errors: { name: /Letters, digits and _/ },
    params: app,
  },
  {
    route: 'GET /api/v1/webstackdbuser/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?perPage=0',
    errors: { perPage: /./ },
    params: app,
  },
  {
    route: 'POST /api/v1/webstackdbuser/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'x', password: 'short' },
    errors: { password: 'At least 12 characters' },
    params: app,
  },
  {
    route: 'GET /api/v1/nginxcache/servers/:sid/users/:uid',
    as: 'user',
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: 'POST /api/v1/nginxcache/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { ttl_seconds: 0, bypass_paths: ['no-slash'], bypass_cookies: ['a b'] },
    errors: { ttl_seconds: /./, 'bypass_paths.0': /A path/, 'bypass_cookies.0': /A cookie/ },
    params: app,
  },
  {
    route: 'PATCH /api/v1/nginxcache/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { ttl_seconds: 100000 },
    errors: { ttl_seconds: /./ },
    params: app,
  },
  {
    route: 'DELETE /api/v1/nginxcache/servers/:sid/users/:uid',
    as: 'user',
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: 'POST /api/v1/nginxcache/purge/servers/:sid/users/:uid',
    as: 'user',
    query: '',
    errors: { wsid: /./ },
  },
  {
    route: 'PUT /api/v1/applimits/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { processes: 8, memory_mb: '1 GiB' },
    errors: { processes: 'At least 16', memory_mb: /./ },
    params: app,
  },
];
