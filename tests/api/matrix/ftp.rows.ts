import { randomUUID } from 'node:crypto';
import { QUEUED, type Row } from './support';

/**
 * An app's FTP accounts (under `app`): the rows derive from the declaration, but a user name is
 * unique on its server, so each create names a fresh one (queued: the fixture server is offline).
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/ftp/webstacks/:appId/servers/:sid/users/:uid',
    body: () => ({
      username: `u${randomUUID().slice(0, 8)}`,
      password: 'a long ftp password',
      directory: 'public',
    }),
    expect: QUEUED,
  },
];
