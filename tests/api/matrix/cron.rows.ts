import { managedKinds } from '../../../server/features';
import { OFFLINE, type Row, managedChild } from './support';

const kind = managedKinds.find((k) => k.resource === 'cronjobs')!;

/**
 * Cron jobs: the CRUD rows derive from the declaration (derivedManagedRows); "Run now" needs
 * the agent, so everyone who passes the guard and the tenant check hears the server is offline.
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/cronjobs/:cronId/run/servers/:sid/users/:uid',
    params: async (f) => ({ cronId: await managedChild(f.t, kind, f.serverId) }),
    expect: OFFLINE,
  },
];
