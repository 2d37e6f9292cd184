import { managedKinds } from '../../../server/features';
import { OFFLINE, type Row, SHARED, managedChild } from './support';

const kind = managedKinds.find((k) => k.resource === 'svjobs')!;

/** A job on the fixture server, for the actions that name one by `?name=`. */
const named = async (f: Parameters<NonNullable<Row['params']>>[0]) =>
  `?name=${await managedChild(f.t, kind, f.serverId)}`;

/**
 * Supervisor jobs: the CRUD rows derive from the declaration (derivedManagedRows). The
 * actions read or change the server itself, so whoever passes the guard and the tenant check
 * hears that it is offline; rebuild writes the panel's rows again, queued while it is.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/svjobs/procs/servers/:sid/users/:uid', expect: OFFLINE },
  { route: 'GET /api/v1/svjobs/rebuild/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'GET /api/v1/svjobs/handle/servers/:sid/users/:uid',
    query: async (f) => `${await named(f)}&action=stop`,
    expect: OFFLINE,
  },
  {
    route: 'GET /api/v1/svjobs/logs/servers/:sid/users/:uid',
    query: async (f) => named(f),
    expect: OFFLINE,
  },
];
