import { OFFLINE, type Row } from './support';

/** The Roundcube installer: as WordPress's, refused at once for the fixture's offline server. */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/roundcube/servers/:sid/users/:uid',
    body: () => ({ name: 'webmail', domains: ['mail.example.com'], sys_user: 'alice' }),
    expect: OFFLINE,
  },
];
