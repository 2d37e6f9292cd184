import { randomUUID } from 'node:crypto';
import { managedKinds } from '../../../server/features';
import { OFFLINE, QUEUED, type Row, SELF, SHARED, type Fixture, managedChild } from './support';

const kind = managedKinds.find((k) => k.resource === 'webstacks')!;

const appParam = async (f: Fixture) => ({ appId: await managedChild(f.t, kind, f.serverId) });
const fresh = () => randomUUID().slice(0, 8);
/** The cache's writes answer 202 while the fixture server is offline (the app waits for it). */
const QUEUED_OK = QUEUED;

/** The system user the example's apps run as, on the fixture server (as the server's opening makes it). */
async function withUser(f: Fixture) {
  const there = await f.t.app.db
    .selectFrom('sysusers')
    .select('id')
    .where('server_id', '=', f.serverId)
    .where('user_name', '=', 'stackdeck')
    .executeTakeFirst();
  if (there) return;
  const at = new Date().toISOString();
  await f.t.app.db
    .insertInto('sysusers')
    .values({
      server_id: f.serverId,
      user_name: 'stackdeck',
      quota_hard: 0,
      quota_soft: 0,
      status: 'active',
      error: null,
      error_field: null,
      password_hash: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * Web apps: list, get and delete rows derive from the declaration. Written here: creates and
 * changes, whose domains must be fresh each time (a domain belongs to one app of a server) and
 * whose user must be one of the server's; the rebuild (queued while the server is offline);
 * the PHP versions (asked of the server); the A-record check and a user's apps of all servers.
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/webstacks/servers/:sid/users/:uid',
    body: async (f) => {
      await withUser(f);
      const name = `m${fresh()}`;
      return { name, domains: [`${name}.example.com`], sys_user: 'stackdeck' };
    },
    expect: QUEUED,
  },
  {
    route: 'PATCH /api/v1/webstacks/:appId/servers/:sid/users/:uid',
    params: appParam,
    body: () => ({ domains: [`${fresh()}.example.org`], php_settings: { memory_limit: '512M' } }),
    expect: QUEUED,
  },
  {
    route: 'PATCH /api/v1/webstacks/rebuild/:appId/servers/:sid/users/:uid',
    params: appParam,
    expect: QUEUED,
  },
  { route: 'GET /api/v1/webstacks/php/servers/:sid/users/:uid', expect: OFFLINE },
  // apt on the server is asked live: the matrix's server is offline.
  { route: 'GET /api/v1/webstacks/php/available/servers/:sid/users/:uid', expect: OFFLINE },
  {
    route: 'POST /api/v1/webstacks/php/servers/:sid/users/:uid',
    body: () => ({ version: '8.3' }),
    expect: OFFLINE,
  },
  {
    route: 'GET /api/v1/a-record-validation/servers/:sid/users/:uid',
    query: () => '?domain=nowhere.invalid',
    expect: SHARED,
  },
  { route: 'GET /api/v1/webstacks/users/:uid', expect: SELF },
  // The web cache rides with its app: reads are the tenants', writes queue for the server.
  {
    route: 'GET /api/v1/nginxcache/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}`,
    expect: SHARED,
  },
  { route: 'GET /api/v1/nginxcache/webstacks/:appId/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/nginxcache/servers/:sid/users/:uid',
    query: async (f) => `?wsid=${(await appParam(f)).appId}`,
    body: () => ({ ttl_seconds: 300 }),
    expect: QUEUED_OK,
  },
  {
    // Off, so there is nothing to change: refused alike for everyone who reaches it.
    route: 'PATCH /api/v1/nginxcache/servers/:sid/users/:uid',
    query: async (f) => `?wsid=${(await appParam(f)).appId}`,
    body: () => ({ ttl_seconds: 300 }),
    expect: { ...SHARED, owner: 409, member: 409, admin: 409, acting: 409 },
  },
  {
    route: 'DELETE /api/v1/nginxcache/servers/:sid/users/:uid',
    query: async (f) => `?wsid=${(await appParam(f)).appId}`,
    expect: QUEUED_OK,
  },
  {
    route: 'POST /api/v1/nginxcache/purge/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}`,
    expect: OFFLINE,
  },
  // Limits: read by the app's tenants; a change goes to the server at once (offline: 409).
  { route: 'GET /api/v1/applimits/webstacks/:appId/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'PUT /api/v1/applimits/webstacks/:appId/servers/:sid/users/:uid',
    body: () => ({ processes: 64, memory_mb: 512 }),
    expect: OFFLINE,
  },
  { route: 'DELETE /api/v1/applimits/webstacks/:appId/servers/:sid/users/:uid', expect: OFFLINE },
];
