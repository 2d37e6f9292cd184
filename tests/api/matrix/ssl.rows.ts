import type { TestApp } from '../helpers';
import { makePki } from '../sslFixtures';
import { QUEUED, type Row, SHARED, appOn } from './support';

/**
 * SSL certificates: written here, since an upload must hold (a key matching a certificate
 * that names the app's domain, made with openssl once) and each app takes one certificate, so
 * every write names a fresh app of the fixture server. Writes queue for the offline server.
 */
let leaf: Promise<{ certificate: string; private_key: string }> | undefined;
function upload() {
  leaf ??= (async () => {
    const pki = await makePki();
    try {
      // The example app's domain (features/webapps/resource.ts webstacks.example).
      const made = await pki.leaf(['shop.example.com']);
      return { certificate: `${made.certificate}${pki.intermediate}`, private_key: made.key };
    } finally {
      pki.close();
    }
  })();
  return leaf;
}

/** A certificate row of an app on a server, active as if the server had it. */
async function certOn(
  t: TestApp,
  serverId: number,
  type: 'custom' | 'letsencrypt' = 'custom',
  appId?: number,
): Promise<number> {
  const at = new Date().toISOString();
  const row = await t.app.db
    .insertInto('sslcerts')
    .values({
      server_id: serverId,
      webapp_id: appId ?? (await appOn(t, serverId)),
      type,
      names: JSON.stringify(['shop.example.com']),
      issuer: 'CN=Test',
      not_before: at,
      not_after: at,
      force_https: 0,
      email: null,
      certificate: null,
      private_key: null,
      renew: null,
      status: 'active',
      error: null,
      error_field: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const children = {
  sslcerts: (t: TestApp, serverId: number) => certOn(t, serverId),
};

const cert = async (f: { t: TestApp; serverId: number }) => ({
  certId: await certOn(f.t, f.serverId),
});

export const rows: Row[] = [
  { route: 'GET /api/v1/sslcerts/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/sslcerts/servers/:sid/users/:uid',
    body: async (f) => ({ webapp_id: await appOn(f.t, f.serverId), ...(await upload()) }),
    expect: QUEUED,
  },
  { route: 'GET /api/v1/sslcerts/:certId/servers/:sid/users/:uid', params: cert, expect: SHARED },
  {
    route: 'PATCH /api/v1/sslcerts/:certId/servers/:sid/users/:uid',
    params: cert,
    body: () => ({ force_https: true }),
    expect: QUEUED,
  },
  {
    route: 'DELETE /api/v1/sslcerts/:certId/servers/:sid/users/:uid',
    params: cert,
    expect: QUEUED,
  },
  {
    route: 'POST /api/v1/letsencrypt/servers/:sid/users/:uid',
    body: async (f) => ({ webapp_id: await appOn(f.t, f.serverId), email: 'ops@example.com' }),
    expect: QUEUED,
  },
  {
    route: 'PATCH /api/v1/letsencrypt/:certId/servers/:sid/users/:uid',
    params: async (f) => ({ certId: await certOn(f.t, f.serverId, 'letsencrypt') }),
    expect: QUEUED,
  },
  {
    route: 'GET /api/v1/sslcerts/hostname/servers/:sid/users/:uid',
    query: () => '?hostname=shop.example.com',
    expect: SHARED,
  },
  { route: 'GET /api/v1/sslcerts/webstacks/:appId/servers/:sid/users/:uid', expect: SHARED },
];
