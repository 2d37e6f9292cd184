import { OFFLINE, type Row } from './support';

/**
 * Cloning an app (under `app`: the fixture's app fills `{appId}`; the derived rows name
 * another tenant's app): refused at once for the fixture's offline server.
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/clone-webapp/webstacks/:appId/servers/:sid/users/:uid',
    body: () => ({ name: 'shop-copy', domains: ['copy.example.com'], sys_user: 'alice' }),
    expect: OFFLINE,
  },
];
