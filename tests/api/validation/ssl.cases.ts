import { ManagedStore } from '../../../server/managed/store';
import type { Case } from '../validation.test';
import { app } from './webapps.cases';

type Fixture = Parameters<NonNullable<Case['params']>>[0];

/** A certificate of a web app on the user's server (`{certId}` is loaded before the body). */
const cert = async (f: Fixture) => {
  const { appId } = await app(f);
  const row = await new ManagedStore(f.t.app.db, 'sslcerts').insert(f.serverId, {
    webapp_id: appId,
    type: 'custom',
    names: '[]',
    force_https: 0,
    served: 0,
  });
  return { appId, certId: row.id };
};

/** Bad input on certificates: ids, PEM blocks, addresses, names, flags. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/sslcerts/servers/:sid/users/:uid',
    as: 'user',
    query: '?webapp_id=abc&sync=maybe',
    errors: { webapp_id: /./, sync: /./ },
  },
  {
    route: 'POST /api/v1/sslcerts/servers/:sid/users/:uid',
    as: 'user',
    body: { webapp_id: 0, certificate: 'x'.repeat(20_001), private_key: '', force_https: 'yes' },
    errors: { webapp_id: /./, certificate: /./, private_key: /./, force_https: /./ },
  },
  {
    route: 'PATCH /api/v1/sslcerts/:certId/servers/:sid/users/:uid',
    as: 'user',
    body: { force_https: 'on', certificate: 'x'.repeat(20_001) },
    errors: { force_https: /./, certificate: /./ },
    params: cert,
  },
  {
    route: 'POST /api/v1/letsencrypt/servers/:sid/users/:uid',
    as: 'user',
    body: { webapp_id: 'one', email: 'not-an-address' },
    errors: { webapp_id: /./, email: 'An e-mail address' },
  },
  {
    route: 'GET /api/v1/sslcerts/hostname/servers/:sid/users/:uid',
    as: 'user',
    query: '?hostname=bad;name',
    errors: { hostname: /./ },
  },
  {
    route: 'GET /api/v1/sslcerts/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?page=0',
    errors: { page: /./ },
    params: app,
  },
];
