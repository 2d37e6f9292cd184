import { randomUUID } from 'node:crypto';
import { ManagedStore } from '../../../server/managed/store';
import { type Fixture, OFFLINE, type Row, SELF } from './support';

/** The fixture's app is no Roundcube app: whoever passes the guard and the tenant check gets 409. */
const NOT_ROUNDCUBE = OFFLINE;
/** Opening a mailbox is its owner's alone: no team member, no admin, acting or not (403). */
const MAIL_OWNER = { ...SELF, owner: 409, member: 403, admin: 403, acting: 403 };

/** A mailbox of the fixture's server, as if the server had it. */
async function mailbox(f: Fixture): Promise<number> {
  const row = await new ManagedStore(f.t.app.db, 'mail_users').insert(f.serverId, {
    webapp_id: f.appId,
    local: `m${randomUUID().slice(0, 8)}`,
    domain: 'shop.example.com',
    quota_mb: 100,
    password_hash: null,
    forward_to: '[]',
    keep_copy: 1,
    delete_mail: 0,
  });
  return row.id;
}

const sso = 'roundcube-sso/:appId/servers/:sid/users/:uid';

/**
 * The Roundcube installer: as WordPress's, refused at once for the fixture's offline server.
 * Its sign-on: the fixture's app is no Roundcube app (409 for whoever reaches it), and opening a
 * mailbox is refused first to a team member and to admins (403).
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/roundcube/servers/:sid/users/:uid',
    body: () => ({ name: 'webmail', domains: ['mail.example.com'], sys_user: 'alice' }),
    expect: OFFLINE,
  },
  { route: `GET /api/v1/${sso}`, expect: NOT_ROUNDCUBE },
  {
    route: `POST /api/v1/${sso}`,
    body: async (f) => ({ mailbox_id: await mailbox(f) }),
    expect: MAIL_OWNER,
  },
];
