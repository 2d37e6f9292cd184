import { OFFLINE, type Row } from './support';

/**
 * An app's web-server logs: read from its server, which is offline in the matrix (409 for all
 * who pass the guard and the tenant check); the app is named by `?wsid=` (the derived rows name
 * another tenant's app).
 */
export const rows: Row[] = [
  {
    route: 'GET /api/v1/nginxlog/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}&scroll_count=1&type=access`,
    expect: OFFLINE,
  },
  {
    route: 'GET /api/v1/apachelog/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}&type=error`,
    // The matrix's app is served by nginx alone: no Apache log, whether the server answers or not.
    expect: { ...OFFLINE, owner: 400, member: 400, admin: 400, acting: 400 },
  },
];
