import { ManagedStore } from '../../../server/managed/store';
import type { TestApp } from '../helpers';
import { OFFLINE, type Row } from './support';

/**
 * The WordPress manager: everything runs on the app's server, which is offline in the matrix
 * (409 for all who pass the guard and the tenant check). The app is a WordPress app of the
 * fixture server, so the refusal is the server's, not "not a WordPress app" (also a 409; the
 * API test tells them apart). The derived rows name another tenant's app: 404.
 */
let wordpress: Promise<number> | undefined;
function wpApp(f: { t: TestApp; serverId: number }): Promise<number> {
  wordpress ??= new ManagedStore(f.t.app.db, 'webapps')
    .insert(f.serverId, {
      name: 'matrixblog',
      webapp_type: 'wordpress',
      stack_type: 'nginx',
      php_version: '8.2',
      domains: JSON.stringify(['matrixblog.example']),
      web_root: 'public',
      php_settings: '{}',
      sys_user: 'alice',
      parent_id: null,
    })
    .then((row) => row.id);
  return wordpress;
}

const wsid = async (f: { t: TestApp; serverId: number }, more = '') =>
  `?wsid=${await wpApp(f)}${more}`;
const base = '/servers/:sid/users/:uid';

export const rows: Row[] = [
  { route: `GET /api/v1/wp-manager/general${base}`, query: (f) => wsid(f), expect: OFFLINE },
  {
    route: `PATCH /api/v1/wp-manager/general${base}`,
    query: (f) => wsid(f, '&type=title'),
    body: () => ({ value: 'A title' }),
    expect: OFFLINE,
  },
  { route: `GET /api/v1/wp-manager/users${base}`, query: (f) => wsid(f), expect: OFFLINE },
  {
    route: `POST /api/v1/wp-manager/users${base}`,
    query: (f) => wsid(f),
    body: () => ({
      login: 'author1',
      email: 'author1@example.com',
      role: 'author',
      password: 'a long password 12',
    }),
    expect: OFFLINE,
  },
  {
    route: `PATCH /api/v1/wp-manager/users/:wpUserId${base}`,
    params: async () => ({ wpUserId: 2 }),
    query: (f) => wsid(f),
    body: () => ({ role: 'editor' }),
    expect: OFFLINE,
  },
  {
    route: `DELETE /api/v1/wp-manager/users/:wpUserId${base}`,
    params: async () => ({ wpUserId: 2 }),
    query: (f) => wsid(f),
    expect: OFFLINE,
  },
  { route: `GET /api/v1/wp-manager/plugins${base}`, query: (f) => wsid(f), expect: OFFLINE },
  {
    route: `PATCH /api/v1/wp-manager/plugins${base}`,
    query: (f) => wsid(f, '&plugin=akismet/akismet.php&action=activate'),
    expect: OFFLINE,
  },
  {
    route: `DELETE /api/v1/wp-manager/plugins${base}`,
    query: (f) => wsid(f, '&plugin=akismet/akismet.php'),
    expect: OFFLINE,
  },
  {
    route: `PATCH /api/v1/wp/webstacks/:appId${base}`,
    params: async (f) => ({ appId: await wpApp(f) }),
    body: () => ({ file_name: 'plugin.zip', zip: 'UEsDBA==' }),
    expect: OFFLINE,
  },
];
