import { managedKinds } from '../../../server/features';
import { OFFLINE, QUEUED, type Row, SELF, SHARED, managedChild } from './support';

const databases = managedKinds.find((k) => k.resource === 'databases')!;
const dbusers = managedKinds.find((k) => k.resource === 'dbusers')!;

const dbParam = async (f: Parameters<NonNullable<Row['params']>>[0]) => ({
  dbId: await managedChild(f.t, databases, f.serverId),
});

/**
 * Databases and their users: most CRUD rows derive from the declarations (derivedManagedRows).
 * Written here: the extra routes; the updates, whose derived body would rename (a database
 * rename moves tables on the live server, so it is no queued write; a user keeps its name);
 * and a grant naming another tenant's database, refused as absent before the agent hears it.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/databases/users/:uid', expect: SELF },
  {
    // The collation list names its server in `?server=`, checked through the caller's tenancy.
    route: 'GET /api/v1/databases/collations',
    // An admin reaches only their own servers here (no {uid} to act for): 404 like a stranger.
    query: (f) => `?server=${f.serverId}`,
    expect: { ...OFFLINE, admin: 404 },
  },
  {
    route: 'PUT /api/v1/databases/:dbId/servers/:sid/users/:uid',
    params: dbParam,
    body: () => ({ collation: 'utf8mb4_general_ci' }),
    expect: QUEUED,
  },
  {
    route: 'PATCH /api/v1/databases/:dbId/servers/:sid/users/:uid',
    params: dbParam,
    query: async (f) => `?userdel=${await managedChild(f.t, dbusers, f.serverId)}`,
    expect: QUEUED,
  },
  {
    route: 'PUT /api/v1/dbusers/:dbUserId/servers/:sid/users/:uid',
    params: async (f) => ({ dbUserId: await managedChild(f.t, dbusers, f.serverId) }),
    body: () => ({ password: 'another long database password', databases: [] }),
    expect: QUEUED,
  },
  {
    route: 'POST /api/v1/dbusers/servers/:sid/users/:uid',
    body: (f) => ({
      name: `x${Math.random().toString(36).slice(2, 10)}`,
      password: 'a long database password',
      databases: [f.foreign.children['databases']],
    }),
    // Another tenant's database is refused at the form's field, as an absent one is.
    expect: { ...SHARED, owner: 400, member: 400, admin: 400, acting: 400 },
  },
];
