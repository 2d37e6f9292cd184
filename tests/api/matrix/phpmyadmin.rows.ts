import { managedKinds } from '../../../server/features';
import { OFFLINE, type Row, managedChild } from './support';

const dbusers = managedKinds.find((k) => k.resource === 'dbusers')!;

/**
 * The phpMyAdmin sign-in: the fixture's server has the database user but no phpMyAdmin app, so
 * whoever passes the guard and the tenant check (the member through the team) gets 409
 * "Install phpMyAdmin on this server first", before the agent is asked. (A database user of
 * another tenant, named in the query, is 404: tests/api/phpmyadmin.test.ts.)
 */
export const rows: Row[] = [
  {
    route: 'GET /api/v1/phpmyadmin-login/servers/:sid/users/:uid',
    query: async (f) => `?dbuser=${await managedChild(f.t, dbusers, f.serverId)}`,
    expect: OFFLINE,
  },
];
