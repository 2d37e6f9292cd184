import { ManagedStore } from '../../../server/managed/store';
import type { Case } from '../validation.test';
import { app } from './webapps.cases';

type Fixture = Parameters<NonNullable<Case['params']>>[0];

/** A mailbox of a web app on the user's server (`{mid}` is loaded before the body). */
const mailbox = async (f: Fixture) => {
  const { appId } = await app(f);
  const row = await new ManagedStore(f.t.app.db, 'mail_users').insert(f.serverId, {
    webapp_id: appId,
    local: `m${Math.random().toString(36).slice(2, 10)}`,
    domain: 'x.example',
    quota_mb: 100,
    password_hash: null,
    forward_to: '[]',
    keep_copy: 1,
    delete_mail: 0,
  });
  return { appId, mid: row.id };
};

/** A forwarder of a web app on the user's server. */
const forwarder = async (f: Fixture) => {
  const { appId } = await app(f);
  const row = await new ManagedStore(f.t.app.db, 'mail_forwarders').insert(f.serverId, {
    webapp_id: appId,
    local: `f${Math.random().toString(36).slice(2, 10)}`,
    domain: 'x.example',
    targets: '["a@far.example"]',
  });
  return { appId, fid: row.id };
};

/** Bad input on mail: local parts, domains, passwords, quotas, forward targets, the relay. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/mail-user/webstack/:appId/servers/:sid/users/:uid',
    as: 'user',
    query: '?page=0&domain=not%20a%20domain',
    errors: { page: /./, domain: /./ },
    params: app,
  },
  {
    route: 'POST /api/v1/mail-user/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { local: '.bad', domain: 'no', password: 'short', quota_mb: -1 },
    errors: { local: /./, domain: /./, password: 'At least 12 characters', quota_mb: /./ },
    params: app,
  },
  {
    route: 'PATCH /api/v1/mail-user/:mid/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { password: 'short', quota_mb: 'lots' },
    errors: { password: 'At least 12 characters', quota_mb: /./ },
    params: mailbox,
  },
  {
    route: 'DELETE /api/v1/mail-user/:mid/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&delete_mail=perhaps',
    errors: { delete_mail: /./ },
    params: mailbox,
  },
  {
    route: 'POST /api/v1/email-forwarding/mail-user/:mid/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { targets: 'someone', keep_copy: 'yes' },
    errors: { targets: /./, keep_copy: /./ },
    params: mailbox,
  },
  {
    route: 'POST /api/v1/mail/servers/:sid/users/:uid',
    as: 'user',
    body: { smarthost: { host: 'bad host!', port: 0, username: '', password: '' } },
    errors: {
      'smarthost.host': /./,
      'smarthost.port': /./,
      'smarthost.username': /./,
      'smarthost.password': /./,
    },
  },
  {
    route: 'PUT /api/v1/autoresponder/mail-user/:mid/servers/:sid/users/:uid',
    as: 'user',
    body: { subject: 'two\nlines', body: '', starts: '2026-02-30', ends: '2026-13-01', days: 31 },
    errors: {
      subject: 'One line, no line breaks',
      body: /./,
      starts: 'Not a real date',
      ends: 'Not a real date',
      days: 'At most 30',
    },
    params: mailbox,
  },
  {
    route: 'PUT /api/v1/autoresponder/mail-user/:mid/servers/:sid/users/:uid',
    as: 'user',
    body: { subject: 'Away', body: 'Back soon.', starts: '2026-12-10', ends: '2026-12-01' },
    errors: { ends: 'Not before the start date' },
    params: mailbox,
  },
  {
    route: 'POST /api/v1/mail-forwarder/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { local: 'a..b', domain: 'no', targets: ['nobody', 'a@far.example'] },
    errors: { local: 'No two dots in a row', domain: /./, 'targets.0': /mail address/ },
    params: app,
  },
  {
    route: 'POST /api/v1/mail-forwarder/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { local: 'a', domain: 'x.example', targets: [] },
    errors: { targets: 'At least one address' },
    params: app,
  },
  {
    route: 'PATCH /api/v1/mail-forwarder/:fid/servers/:sid/users/:uid',
    as: 'user',
    body: { targets: Array.from({ length: 51 }, (_, i) => `a${i}@far.example`) },
    errors: { targets: 'At most 50 addresses' },
    params: forwarder,
  },
  {
    route: 'PUT /api/v1/mail-catchall/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId',
    body: { domain: 'bad domain', targets: 'someone' },
    errors: { domain: /./, targets: /./ },
    params: app,
  },
  {
    route: 'DELETE /api/v1/mail-catchall/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&domain=..',
    errors: { domain: /./ },
    params: app,
  },
  {
    route: 'GET /api/v1/mail-forwarders/users/:uid',
    as: 'user',
    query: '?page=0&perPage=9999',
    errors: { page: /./, perPage: /./ },
  },
  {
    route: 'GET /api/v1/mail-users/users/:uid',
    as: 'user',
    query: '?page=0&perPage=9999',
    errors: { page: /./, perPage: /./ },
  },
  // The webmail: folders, pages, uids, MIME parts and what compose sends.
  ...(
    [
      [
        'GET',
        'messages',
        '?folder=..%2Fetc&page=0&per_page=30&search=a%0Ab',
        undefined,
        {
          folder: 'A folder name',
          page: /./,
          per_page: 'One of 25, 50, 100',
          search: 'One line',
        },
      ],
      ['GET', 'message', '?folder=inbox&uid=x', undefined, { uid: /./ }],
      ['GET', 'attachment', '?folder=inbox&uid=1&part=..', undefined, { part: /MIME part/ }],
      [
        'GET',
        'image',
        '?folder=inbox&uid=1&url=javascript%3Aalert(1)',
        undefined,
        { url: 'An http or https address' },
      ],
      [
        'POST',
        'move',
        '',
        { folder: 'inbox', uids: [], to: '/' },
        { uids: 'Pick a message', to: /./ },
      ],
      [
        'POST',
        'flag',
        '',
        { folder: 'inbox', uids: [0], seen: 'yes' },
        { 'uids.0': /./, seen: /./ },
      ],
      ['POST', 'delete', '', { folder: 'a/../b', uids: [1] }, { folder: /./ }],
      [
        'POST',
        'draft',
        '',
        { message: { to: ['nobody'], subject: 'a', text: '' } },
        { 'message.to.0': /./ },
      ],
      [
        'POST',
        'send',
        '',
        {
          message: {
            to: ['bo@elsewhere.example'],
            subject: 'Hi\r\nBcc: all@x.example',
            text: 'Hello',
            attachments: [{ filename: '../x', content_type: 'text html', content: '' }],
          },
        },
        {
          'message.subject': 'One line',
          'message.attachments.0.filename': 'A file name',
          'message.attachments.0.content_type': 'A MIME type',
        },
      ],
    ] as const
  ).map(([method, what, query, body, errors]): Case => ({
    route: `${method} /api/v1/webmail/mail-user/:mid/${what}/servers/:sid/users/:uid`,
    as: 'user',
    ...(query && { query }),
    ...(body && { body }),
    errors,
    params: mailbox,
  })),
];
