import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { mailboxThroughApi } from './mailRows';
import { addSysuser } from './serverRows';

/**
 * The webmail's calls in the panel: what the mailbox's server is asked (the mailbox's address,
 * never one the browser names), its answers passed on, an attachment as a download of opaque
 * bytes, every open and send in the account's activity, and who is refused: an admin (naming
 * the user or acting as them), another account, a mailbox not ready. The agent here is a fake
 * (the API layer); tests/system/mail-webmail.test.ts runs the real ops against Dovecot.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
let agent: FakeAgent;
let other: FakeAgent;
let mid: number;
let strangersMid: number;

const summary = {
  uid: 7,
  subject: 'Hello',
  from: [{ name: 'Bo', address: 'bo@elsewhere.example' }],
  to: [{ name: '', address: 'info@shop.example' }],
  date: '2026-11-27T10:00:00.000Z',
  size: 1200,
  seen: false,
  flagged: false,
  answered: false,
  has_attachments: true,
};

/** The received message's HTML (the image proxy's test gives it images of its own server). */
let messageHtml = '<p>Hi <img src="https://tracker.example/p.gif"></p>';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The internet's image servers, on a loopback address the panel is told it may reach
 * (OUTBOUND_ALLOW=127.0.0.2) as it would a public one; 127.0.0.1 stays refused.
 */
async function imageServer(): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    const at = new URL(req.url ?? '/', 'http://x').pathname;
    if (at === '/pixel.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (at === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<b>x</b>');
    else if (at === '/huge.png')
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(6 * 1024 * 1024));
    else if (at === '/hop')
      res.writeHead(302, { location: `http://127.0.0.1:${port}/pixel.png` }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return {
    base: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function fakeMailOps() {
  return {
    'mail.domain.set': () => ({ dkim_public_key: 'KEY', selector: 'mail' }),
    'mail.mailbox.set-many': (a: { mailboxes: unknown[] }) => ({ count: a.mailboxes.length }),
    'mail.forwards.set': (a: { forwards: unknown[] }) => ({ count: a.forwards.length }),
    'mail.imap.folders': () => ({
      folders: [
        { path: 'INBOX', name: 'Inbox', special: 'inbox', messages: 1, unseen: 1 },
        { path: 'Sent', name: 'Sent', special: 'sent', messages: 0, unseen: 0 },
      ],
      quota: { used_kib: 12, limit_kib: 102_400 },
    }),
    'mail.imap.list': () => ({ total: 1, messages: [summary] }),
    'mail.imap.message': () => ({
      ...summary,
      seen: true,
      cc: [],
      reply_to: [],
      message_id: '<m1@elsewhere.example>',
      references: [],
      text: 'Hi there',
      html: messageHtml,
      attachments: [{ part: '2', filename: 'report.html', content_type: 'text/html', size: 20 }],
    }),
    'mail.imap.attachment': () => ({
      filename: 'rapport é.html',
      content_type: 'text/html',
      content: Buffer.from('<script>alert(1)</script>').toString('base64'),
    }),
    'mail.imap.move': (a: { uids: number[] }) => ({ moved: a.uids.length }),
    'mail.imap.flag': (a: { uids: number[] }) => ({ changed: a.uids.length }),
    'mail.imap.delete': (a: { uids: number[] }) => ({ deleted: a.uids.length }),
    'mail.imap.draft': () => ({ uid: 3 }),
    'mail.smtp.send': (a: { message: { to: string[] } }) => ({
      message_id: '<sent@shop.example>',
      accepted: a.message.to,
    }),
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
  };
}

const on = (fake: FakeAgent, p: string, uid: number) =>
  `/api/v1/${p}/servers/${fake.server.id}/users/${uid}`;
const web = (what: string, id = mid, uid = owner.id, fake = agent) =>
  on(fake, `webmail/mail-user/${id}/${what}`, uid);
const call = (method: 'GET' | 'POST', url: string, body?: unknown, token = owner.token) =>
  live.t.call(method, url, { token, body });

const mailbox = (fake: FakeAgent, user: TestUser, app: string, local: string) =>
  mailboxThroughApi(live, fake, user, app, local);

const lastCall = (name: string) => agent.calls.filter((c) => c.name === name).at(-1)?.args;

async function activity(uid: number): Promise<string[]> {
  const rows = await live.t.app.db
    .selectFrom('account_activity')
    .select('message')
    .where('user_id', '=', uid)
    .execute();
  return rows.map((r) => r.message);
}

const message = { to: ['bo@elsewhere.example'], subject: 'Re: Hello', text: 'Thanks!' };

beforeAll(async () => {
  live = await startLiveApp({}, { outboundAllow: ['127.0.0.2'] });
  owner = await live.t.user();
  stranger = await live.t.user();
  admin = await live.t.user({ admin: true });
  agent = await startFakeAgent(live, owner, fakeMailOps(), 'webmail-a');
  other = await startFakeAgent(live, stranger, fakeMailOps(), 'webmail-b');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, other.server.id, 'alice');
  mid = await mailbox(agent, owner, 'shop', 'info');
  strangersMid = await mailbox(other, stranger, 'elsewhere', 'them');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('the webmail', () => {
  it("opens the mailbox: its folders and quota, asked for the mailbox's own address, logged", async () => {
    const res = await call('GET', web('folders'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      address: 'info@shop.example',
      folders: [{ special: 'inbox', unseen: 1 }, { special: 'sent' }],
      quota: { used_kib: 12 },
    });
    expect(lastCall('mail.imap.folders')).toEqual({ address: 'info@shop.example' });
    expect(await activity(owner.id)).toContain(
      'Opened the mailbox info@shop.example in the webmail',
    );
    // The page asks again every 30 seconds: one line a sitting, not one a refresh.
    expect((await call('GET', web('folders'))).statusCode).toBe(200);
    const opened = (await activity(owner.id)).filter((m) => m.startsWith('Opened the mailbox'));
    expect(opened).toHaveLength(1);
  });

  it('lists a page of a folder, the search passed on and an empty one as none', async () => {
    let res = await call(
      'GET',
      `${web('messages')}?folder=inbox&page=2&per_page=50&search=invoice`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ total: 1, messages: [summary] });
    expect(lastCall('mail.imap.list')).toEqual({
      address: 'info@shop.example',
      folder: 'inbox',
      page: 2,
      per_page: 50,
      search: 'invoice',
    });
    res = await call('GET', `${web('messages')}?search=`);
    expect(res.statusCode, res.body).toBe(200);
    expect(lastCall('mail.imap.list')).toMatchObject({
      folder: 'inbox',
      page: 1,
      per_page: 25,
      search: null,
    });
  });

  it('refuses a page size, a folder path and a uid it does not take, at their field', async () => {
    const before = agent.calls.length;
    let res = await call('GET', `${web('messages')}?per_page=30&folder=../etc`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['folder', 'per_page']);
    res = await call('GET', `${web('message')}?folder=inbox&uid=0`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['uid']);
    expect(agent.calls.length).toBe(before);
  });

  it('reads a message with its HTML as sent (the browser sanitizes it) and its attachments', async () => {
    const res = await call('GET', `${web('message')}?folder=inbox&uid=7`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      subject: 'Hello',
      text: 'Hi there',
      attachments: [{ part: '2', filename: 'report.html' }],
    });
    expect(lastCall('mail.imap.message')).toEqual({
      address: 'info@shop.example',
      folder: 'inbox',
      uid: 7,
    });
  });

  it('fetches a remote image of the message when asked: no other address, no private one, no page', async () => {
    const images = await imageServer();
    const { base } = images;
    const refused = base.replace('127.0.0.2', '127.0.0.1');
    const before = messageHtml;
    messageHtml = `<p><img src="${base}/pixel.png?a=1&amp;b=2"><img src='${base}/page'><img src=${base}/huge.png><img src="${base}/hop"><img src="${refused}/pixel.png"></p>`;
    const image = (url: string) =>
      call('GET', `${web('image')}?folder=inbox&uid=7&url=${encodeURIComponent(url)}`);
    try {
      const res = await image(`${base}/pixel.png?a=1&b=2`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(lastCall('mail.imap.message')).toEqual({
        address: 'info@shop.example',
        folder: 'inbox',
        uid: 7,
      });
      // Not an image of this message: the proxy is no open relay.
      const notIn = await image(`${base}/pixel.png?another=1`);
      expect(notIn.statusCode).toBe(404);
      expect(notIn.json().message).toBe('The message has no such image');
      const page = await image(`${base}/page`);
      expect(page.statusCode).toBe(502);
      expect(page.json().message).toBe(
        'The image could not be loaded: it is not an image (text/html)',
      );
      expect((await image(`${base}/huge.png`)).json().message).toBe(
        'The image could not be loaded: it is larger than 5 MB',
      );
      // A private address, named or reached by a redirect, is refused.
      for (const url of [`${refused}/pixel.png`, `${base}/hop`]) {
        const res = await image(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message).toContain('127.0.0.1 is a private or local address');
      }
      const bad = await image('ftp://example.com/x.png');
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().errors ?? {})).toContain('url');
      // Another user's mailbox is not theirs to fetch through.
      const theirs = await call(
        'GET',
        `${web('image', strangersMid, stranger.id, other)}?folder=inbox&uid=7&url=${encodeURIComponent(`${base}/pixel.png`)}`,
      );
      expect(theirs.statusCode).toBe(404);
    } finally {
      messageHtml = before;
      await images.close();
    }
  });

  it('reads the message once for all its images, not once per image', async () => {
    const images = await imageServer();
    const { base } = images;
    const before = messageHtml;
    const urls = [1, 2, 3].map((n) => `${base}/pixel.png?n=${n}`);
    messageHtml = urls.map((url) => `<img src="${url}">`).join('');
    const reads = () => agent.calls.filter((c) => c.name === 'mail.imap.message').length;
    const image = (url: string, uid: number) =>
      call('GET', `${web('image')}?folder=inbox&uid=${uid}&url=${encodeURIComponent(url)}`);
    try {
      const first = reads();
      // As the page asks: all at once.
      const got = await Promise.all(urls.map((url) => image(url, 9)));
      expect(got.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(reads() - first).toBe(1);
      // Again within the minute, and a refused address: still no read.
      expect((await image(urls[0]!, 9)).statusCode).toBe(200);
      expect((await image(`${base}/pixel.png?n=4`, 9)).statusCode).toBe(404);
      expect(reads() - first).toBe(1);
      // Another message is its own read.
      expect((await image(urls[1]!, 10)).statusCode).toBe(200);
      expect(reads() - first).toBe(2);
    } finally {
      messageHtml = before;
      await images.close();
    }
  });

  it('serves an attachment as a download of opaque bytes, never as a page of the panel', async () => {
    const res = await call('GET', `${web('attachment')}?folder=inbox&uid=7&part=2`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="rapport _.html"; filename*=UTF-8''rapport%20%C3%A9.html`,
    );
    expect(res.body).toBe('<script>alert(1)</script>');
  });

  it('moves, flags and deletes the messages named', async () => {
    let res = await call('POST', web('move'), { folder: 'inbox', uids: [7, 8], to: 'archive' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ moved: 2 });
    expect(lastCall('mail.imap.move')).toEqual({
      address: 'info@shop.example',
      folder: 'inbox',
      uids: [7, 8],
      to: 'archive',
    });
    res = await call('POST', web('flag'), { folder: 'inbox', uids: [7], seen: false });
    expect(res.json()).toEqual({ changed: 1 });
    res = await call('POST', web('delete'), { folder: 'trash', uids: [7] });
    expect(res.json()).toEqual({ deleted: 1 });
    res = await call('POST', web('delete'), { folder: 'trash', uids: [] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['uids']);
  });

  it('saves a draft and sends, logged without the text', async () => {
    let res = await call('POST', web('draft'), { message, replaces: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ uid: 3 });
    res = await call('POST', web('send'), { message, draft: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message_id: '<sent@shop.example>', accepted: message.to });
    expect(lastCall('mail.smtp.send')).toMatchObject({
      address: 'info@shop.example',
      draft: 3,
      message: { ...message, cc: [], bcc: [], attachments: [] },
    });
    const log = await activity(owner.id);
    expect(log).toContain('Sent a message from info@shop.example to 1 recipient(s)');
    expect(log.join('\n')).not.toContain('Thanks!');
  });

  it('refuses a header injected in the subject and a recipient that is no address', async () => {
    const before = agent.calls.length;
    const res = await call('POST', web('send'), {
      message: { ...message, subject: 'Hi\r\nBcc: all@x.example', to: ['not an address'] },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['message.subject', 'message.to.0']);
    expect(agent.calls.length).toBe(before);
  });
});

describe('who may read the mail', () => {
  it("refuses an admin naming the user and an admin acting as them: mail is its owner's alone", async () => {
    const before = agent.calls.length;
    let res = await call('GET', web('folders'), undefined, admin.token);
    expect(res.statusCode, res.body).toBe(403);
    const acting = await live.t.actAs(admin.token, owner.id);
    res = await call('GET', web('folders'), undefined, acting);
    expect(res.statusCode, res.body).toBe(403);
    expect(agent.calls.length).toBe(before);
  });

  it("answers another account's mailbox as missing, under its own server or the caller's", async () => {
    let res = await call('GET', web('folders', strangersMid));
    expect(res.statusCode).toBe(404);
    res = await call('GET', web('folders', strangersMid, owner.id, other));
    expect(res.statusCode).toBe(404);
  });

  it('refuses a mailbox being removed and a server that is offline', async () => {
    await live.t.app.db
      .updateTable('mail_users')
      .set({ status: 'deleting' })
      .where('id', '=', mid)
      .execute();
    let res = await call('GET', web('folders'));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The mailbox is being removed');
    await live.t.app.db
      .updateTable('mail_users')
      .set({ status: 'active' })
      .where('id', '=', mid)
      .execute();
    await agent.disconnect();
    res = await call('GET', web('folders'));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/offline/);
    await agent.reconnect();
  });
});
