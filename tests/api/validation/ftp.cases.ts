import { ManagedStore } from '../../../server/managed/store';
import type { Case } from '../validation.test';
import { app } from './webapps.cases';

type Fixture = Parameters<NonNullable<Case['params']>>[0];

/** An FTP account of a web app on the user's server (`{ftpId}` is loaded before the body). */
const account = async (f: Fixture) => {
  const { appId } = await app(f);
  const row = await new ManagedStore(f.t.app.db, 'ftp_accounts').insert(f.serverId, {
    webapp_id: appId,
    username: `f${Math.random().toString(36).slice(2, 10)}`,
    directory: '.',
    password_hash: null,
    delete_dir: 0,
  });
  return { appId, ftpId: row.id };
};

/** Bad input on FTP accounts: names, passwords, folders that leave the app, flags. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/ftp/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?sync=maybe',
    errors: { sync: /./ },
    params: app,
  },
  {
    route: 'POST /api/v1/ftp/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { username: '-root', password: 'short', directory: '../other' },
    errors: { username: /./, password: 'At least 12 characters', directory: /./ },
    params: app,
  },
  {
    route: 'PUT /api/v1/ftp/:ftpId/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { password: 'short', directory: 'a/../../b' },
    errors: { password: 'At least 12 characters', directory: /./ },
    params: account,
  },
  {
    route: 'DELETE /api/v1/ftp/:ftpId/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?delhome=perhaps',
    errors: { delhome: /./ },
    params: account,
  },
];
