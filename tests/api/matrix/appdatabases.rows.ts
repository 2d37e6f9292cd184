import { randomUUID } from 'node:crypto';
import { QUEUED, type Row, SHARED } from './support';

const fresh = () => `a${randomUUID().slice(0, 8)}`;

/**
 * An app's databases and database users (under `app`: the fixture's app fills `{appId}`; the
 * derived rows name another tenant's app). Lists are the server's tenants'; creates are queued
 * while the fixture server is offline.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/webstackdb/:appId/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/webstackdb/:appId/servers/:sid/users/:uid',
    body: () => ({ name: fresh() }),
    expect: QUEUED,
  },
  { route: 'GET /api/v1/webstackdbuser/:appId/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/webstackdbuser/:appId/servers/:sid/users/:uid',
    body: () => ({ name: fresh(), password: 'a long database password', databases: [] }),
    expect: QUEUED,
  },
];
