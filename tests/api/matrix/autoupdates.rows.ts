import { OFFLINE, type Row } from './support';

/** Automatic updates (thirdpartyupd): read from and written to the server's apt, live. */
export const rows: Row[] = [
  { route: 'GET /api/v1/thirdpartyupd/servers/:sid/users/:uid', expect: OFFLINE },
  {
    route: 'PATCH /api/v1/thirdpartyupd/servers/:sid/users/:uid',
    body: () => ({ security_update: true }),
    expect: OFFLINE,
  },
];
