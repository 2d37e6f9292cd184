import { randomUUID } from 'node:crypto';
import type { ForwarderRow } from '../../../features/mail/serverForwardersTable';
import { mailboxKind } from '../../../features/mail/serverKind';
import { ManagedStore } from '../../../server/managed/store';
import type { TestApp } from '../helpers';
import {
  type Fixture,
  OFFLINE,
  QUEUED,
  type Row,
  SELF,
  SHARED,
  appOn,
  managedChild,
} from './support';

/**
 * The webmail: its owner reaches the mailbox and meets the offline server (409); nobody else
 * reads mail, not a team member who manages the server, not an admin, acting or not (403).
 */
const MAIL_READER = { ...SELF, owner: 409, member: 403, admin: 403, acting: 403 };
const webmail = (what: string) => `/api/v1/webmail/mail-user/:mid/${what}/servers/:sid/users/:uid`;
const outgoing = { to: ['bo@elsewhere.example'], subject: 'Hi', text: 'Hello' };

/** A write the fixture server must take at once: its tenants reach it, and it is offline. */
const SHARED_OFFLINE = { ...SHARED, owner: 409, member: 409, admin: 409, acting: 409 };

/** Mail on the fixture server, as if enabled: mailboxes are made only where it is. */
async function mailOn(f: Fixture): Promise<void> {
  await f.t.app.db
    .insertInto('mail_servers')
    .values({ server_id: f.serverId, enabled: 1, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('server_id').doUpdateSet({ enabled: 1 }))
    .execute();
}

/** A forwarder of an app's (the fixture's) domain, as if the server had it: its id. */
async function forwarder(t: TestApp, serverId: number, appId: number, local = 'fwd') {
  const store = new ManagedStore<ForwarderRow>(t.app.db, 'mail_forwarders');
  const row = await store.insert(serverId, {
    webapp_id: appId,
    local: local === '@' ? local : `${local}${randomUUID().slice(0, 8)}`,
    // A fresh domain per catch-all: one per domain.
    domain: local === '@' ? `c${randomUUID().slice(0, 8)}.example` : 'shop.example.com',
    targets: JSON.stringify(['someone@elsewhere.example']),
  });
  return store.settle(row, { status: 'active' });
}

/** A mailbox of the fixture's app (its domain, the webapps example's), as if the server had it. */
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

/**
 * Mailboxes of an app and mail per server. A mailbox's address is unique on its server, so each
 * create names a fresh one (queued: the fixture server is offline); enabling and the preflight
 * need the server (409 offline).
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/mail-user/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}`,
    body: async (f) => {
      await mailOn(f);
      return {
        local: `u${randomUUID().slice(0, 8)}`,
        domain: 'shop.example.com',
        password: 'a long mail password',
      };
    },
    expect: QUEUED,
  },
  { route: 'GET /api/v1/mail-user/webstack/:appId/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/email-forwarding/mail-user/:mid/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}`,
    params: async (f) => ({ mid: await mailbox(f) }),
    body: () => ({ targets: ['someone@elsewhere.example'], keep_copy: true }),
    expect: QUEUED,
  },
  { route: 'GET /api/v1/mail/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/mail-preflight/servers/:sid/users/:uid',
    body: () => ({}),
    expect: OFFLINE,
  },
  { route: 'POST /api/v1/mail/servers/:sid/users/:uid', body: () => ({}), expect: OFFLINE },
  {
    route: 'GET /api/v1/autoresponder/mail-user/:mid/servers/:sid/users/:uid',
    params: async (f) => ({ mid: await mailbox(f) }),
    expect: SHARED,
  },
  {
    route: 'PUT /api/v1/autoresponder/mail-user/:mid/servers/:sid/users/:uid',
    params: async (f) => ({ mid: await mailbox(f) }),
    body: () => ({ subject: 'Away', body: 'Back soon.', days: 7 }),
    expect: SHARED_OFFLINE,
  },
  {
    route: 'DELETE /api/v1/autoresponder/mail-user/:mid/servers/:sid/users/:uid',
    params: async (f) => ({ mid: await mailbox(f) }),
    expect: SHARED_OFFLINE,
  },
  ...(
    [
      ['GET', 'folders', undefined, ''],
      ['GET', 'messages', undefined, '?folder=inbox'],
      ['GET', 'message', undefined, '?folder=inbox&uid=1'],
      ['GET', 'attachment', undefined, '?folder=inbox&uid=1&part=2'],
      ['GET', 'image', undefined, '?folder=inbox&uid=1&url=https%3A%2F%2Fcdn.example%2Fa.png'],
      ['POST', 'move', { folder: 'inbox', uids: [1], to: 'archive' }, ''],
      ['POST', 'flag', { folder: 'inbox', uids: [1], seen: true }, ''],
      ['POST', 'delete', { folder: 'inbox', uids: [1] }, ''],
      ['POST', 'draft', { message: outgoing }, ''],
      ['POST', 'send', { message: outgoing }, ''],
    ] as const
  ).map(([method, what, body, query]): Row => ({
    route: `${method} ${webmail(what)}`,
    params: async (f) => ({ mid: await mailbox(f) }),
    ...(query && { query: () => query }),
    ...(body && { body: () => body }),
    expect: MAIL_READER,
  })),
  { route: 'GET /api/v1/mail-users/users/:uid', expect: SELF },
  { route: 'GET /api/v1/email-disk-usage/users/:uid', expect: SELF },
  // Forwarders and catch-alls: queued while the fixture server is offline, as mailboxes are.
  {
    route: 'POST /api/v1/mail-forwarder/servers/:sid/users/:uid',
    query: (f) => `?wsid=${f.appId}`,
    body: async (f) => {
      await mailOn(f);
      return {
        local: `f${randomUUID().slice(0, 8)}`,
        domain: 'shop.example.com',
        targets: ['someone@elsewhere.example'],
      };
    },
    expect: QUEUED,
  },
  {
    route: 'PATCH /api/v1/mail-forwarder/:fid/servers/:sid/users/:uid',
    params: async (f) => ({ fid: (await forwarder(f.t, f.serverId, f.appId)).id }),
    body: () => ({ targets: ['another@elsewhere.example'] }),
    expect: QUEUED,
  },
  {
    route: 'DELETE /api/v1/mail-forwarder/:fid/servers/:sid/users/:uid',
    params: async (f) => ({ fid: (await forwarder(f.t, f.serverId, f.appId)).id }),
    expect: QUEUED,
  },
  {
    route: 'PUT /api/v1/mail-catchall/servers/:sid/users/:uid',
    query: async (f) => {
      await mailOn(f);
      return `?wsid=${f.appId}`;
    },
    body: () => ({ domain: 'shop.example.com', targets: ['someone@elsewhere.example'] }),
    expect: QUEUED,
  },
  {
    route: 'DELETE /api/v1/mail-catchall/servers/:sid/users/:uid',
    query: async (f) =>
      `?wsid=${f.appId}&domain=${(await forwarder(f.t, f.serverId, f.appId, '@')).domain}`,
    expect: QUEUED,
  },
  { route: 'GET /api/v1/mail-forwarders/users/:uid', expect: SELF },
  { route: 'GET /api/v1/mail-domains/users/:uid', expect: SELF },
];

/** On a stranger's server: the autoresponder calls name a mailbox there. */
export const children = {
  'mail-autoresponder': (t: TestApp, serverId: number, appId?: number) =>
    managedChild(t, mailboxKind, serverId, appId),
  'mail-webmail': (t: TestApp, serverId: number, appId?: number) =>
    managedChild(t, mailboxKind, serverId, appId),
  // Of an app of that server (the forwarder's own column: its resource hangs from the server).
  'mail-forwarder': async (t: TestApp, serverId: number, appId?: number) =>
    (await forwarder(t, serverId, appId ?? (await appOn(t, serverId)))).id,
};
