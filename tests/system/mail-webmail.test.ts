import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { hash, opCaller } from './support/mail';
import { addWebapp } from '../api/serverRows';

/**
 * The webmail's agent ops on a real server: the agent opens IMAP and submission on 127.0.0.1
 * as Dovecot's master user for the mailbox it is given (no mailbox password anywhere). Mail
 * arrives from "the internet" (swaks bound to 127.0.0.2); what the webmail sends is read back
 * in the recipient's mailbox, and its DKIM signature is verified with mailauth.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let dkimKey = '';

const D = 'webmail.test';
const ALICE = `alice@${D}`;
const BOB = `bob@${D}`;

const call = opCaller(() => ({ panel, server }));

async function deliver(to: string, subject: string, extra: string[] = []) {
  const res = await sb.exec(
    [
      'swaks',
      '--server',
      '127.0.0.1',
      '--local-interface',
      '127.0.0.2',
      '--from',
      'carol@far.test',
      '--to',
      to,
      '--header',
      `Subject: ${subject}`,
      ...extra,
    ],
    { timeoutMs: 60_000 },
  );
  expect(res.code, res.stdout + res.stderr).toBe(0);
}

const page = (address: string, folder = 'inbox', search: string | null = null) =>
  call('mail.imap.list', { address, folder, page: 1, per_page: 25, search });

/** Delivery is asynchronous (queue, LMTP): waits until the folder holds `count` messages. */
const holds = (address: string, count: number, folder = 'inbox') =>
  sb.waitFor(
    async () => ((await page(address, folder)).total >= count ? true : undefined),
    30_000,
    300,
  );

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'webmail', ['postfix', 'dovecot']));
  await call('mail.enable', { hostname: `mail.${D}`, smarthost: null });
  dkimKey = (await call('mail.domain.set', { domain: D })).dkim_public_key;
  let id = 1;
  for (const local of ['alice', 'bob'])
    await call('mail.mailbox.set', {
      domain: D,
      id: id++,
      local,
      password_hash: await hash(`${local} password 1`),
      quota_mb: 0,
    });
  await sb.execOk(['tee', '/tmp/report.csv'], { input: 'month,total\nnov,42\n' });
  await deliver(ALICE, 'first');
  await deliver(ALICE, 'second, with a report', ['--attach', '/tmp/report.csv']);
  await deliver(ALICE, 'third');
  await holds(ALICE, 3);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('webmail ops on a sandbox server', () => {
  it('lists the folders of the sidebar with their counts', async () => {
    const { folders } = await call('mail.imap.folders', { address: ALICE });
    const specials = folders.map((f) => f.special).filter(Boolean);
    expect(specials.sort()).toEqual(['archive', 'drafts', 'inbox', 'sent', 'spam', 'trash']);
    expect(folders.find((f) => f.special === 'inbox')).toMatchObject({ messages: 3, unseen: 3 });
  });

  it('pages a folder newest first, and searches it', async () => {
    const first = await page(ALICE);
    expect(first.total).toBe(3);
    expect(first.messages.map((m) => m.subject)).toEqual([
      'third',
      'second, with a report',
      'first',
    ]);
    expect(first.messages[1]).toMatchObject({ has_attachments: true, seen: false });
    expect(first.messages[0]!.from).toEqual([{ name: '', address: 'carol@far.test' }]);
    const two = await call('mail.imap.list', {
      address: ALICE,
      folder: 'inbox',
      page: 2,
      per_page: 25,
      search: null,
    });
    expect(two).toEqual({ total: 3, messages: [] });
    const found = await page(ALICE, 'inbox', 'report');
    expect(found.messages.map((m) => m.subject)).toEqual(['second, with a report']);
  });

  it('reads a message (marking it seen) and hands over its attachment', async () => {
    const uid = (await page(ALICE)).messages[1]!.uid;
    const m = await call('mail.imap.message', { address: ALICE, folder: 'inbox', uid });
    expect(m.subject).toBe('second, with a report');
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]).toMatchObject({ filename: 'report.csv' });
    const file = await call('mail.imap.attachment', {
      address: ALICE,
      folder: 'inbox',
      uid,
      part: m.attachments[0]!.part,
    });
    expect(Buffer.from(file.content, 'base64').toString()).toBe('month,total\nnov,42\n');
    expect((await page(ALICE)).messages[1]!.seen).toBe(true);
  });

  it('moves, flags and deletes: to the trash first, then for good', async () => {
    const [third, , first] = (await page(ALICE)).messages;
    expect(
      await call('mail.imap.move', {
        address: ALICE,
        folder: 'inbox',
        uids: [first!.uid],
        to: 'archive',
      }),
    ).toEqual({ moved: 1 });
    expect((await page(ALICE, 'archive')).messages.map((m) => m.subject)).toEqual(['first']);
    await call('mail.imap.flag', {
      address: ALICE,
      folder: 'inbox',
      uids: [third!.uid],
      flagged: true,
    });
    expect((await page(ALICE)).messages[0]).toMatchObject({ subject: 'third', flagged: true });
    await call('mail.imap.delete', { address: ALICE, folder: 'inbox', uids: [third!.uid] });
    const trash = await page(ALICE, 'trash');
    expect(trash.messages.map((m) => m.subject)).toEqual(['third']);
    await call('mail.imap.delete', {
      address: ALICE,
      folder: 'trash',
      uids: [trash.messages[0]!.uid],
    });
    expect((await page(ALICE, 'trash')).total).toBe(0);
    expect((await page(ALICE)).total).toBe(1);
  });

  it('saves a draft and replaces it', async () => {
    const message = { to: [BOB], subject: 'draft one', text: 'not yet' };
    const saved = await call('mail.imap.draft', { address: ALICE, message, replaces: null });
    const again = await call('mail.imap.draft', {
      address: ALICE,
      message: { ...message, subject: 'draft two' },
      replaces: saved.uid,
    });
    expect(again.uid).not.toBe(saved.uid);
    expect((await page(ALICE, 'drafts')).messages.map((m) => m.subject)).toEqual(['draft two']);
  });

  it('sends as the mailbox through 587: it arrives DKIM-signed, a copy is in Sent, the draft goes', async () => {
    const draft = (await page(ALICE, 'drafts')).messages[0]!.uid;
    const sent = await call('mail.smtp.send', {
      address: ALICE,
      draft,
      message: {
        to: [BOB],
        subject: 'from the webmail',
        text: 'Hello Bob, see the numbers.',
        attachments: [
          {
            filename: 'n.txt',
            content_type: 'text/plain',
            content: Buffer.from('42').toString('base64'),
          },
        ],
      },
    });
    expect(sent.accepted).toEqual([BOB]);
    await holds(BOB, 1);
    const got = (await page(BOB)).messages[0]!;
    expect(got).toMatchObject({ subject: 'from the webmail', has_attachments: true });
    expect(got.from[0]!.address).toBe(ALICE);

    // The raw message as Bob's mailbox holds it: signed for webmail.test, and the signature holds.
    const raw = await sb.execOk([
      'bash',
      '-c',
      `shopt -s nullglob; cat /var/vmail/${D}/bob/Maildir/{new,cur}/*`,
    ]);
    expect(raw.stdout).toMatch(/^DKIM-Signature: .*d=webmail\.test/m);
    const result = await authenticate(Buffer.from(raw.stdout), {
      ip: '127.0.0.1',
      helo: `mail.${D}`,
      mta: 'test',
      resolver: async (name: string, rr: string) => {
        if (rr === 'TXT' && name === `mail._domainkey.${D}`)
          return [[`v=DKIM1; k=rsa; p=${dkimKey}`]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(
      result.dkim.results.map((r: { status: { result: string } }) => r.status.result),
    ).toContain('pass');

    expect((await page(ALICE, 'sent')).messages.map((m) => m.subject)).toEqual([
      'from the webmail',
    ]);
    expect((await page(ALICE, 'drafts')).total).toBe(0);
  });

  it('opens only mailboxes of this server (the master user logs in for existing ones only)', async () => {
    await expect(call('mail.imap.folders', { address: `nobody@${D}` })).rejects.toThrow(
      /no mailbox/i,
    );
  });
});

/**
 * The same mailbox through the panel's webmail calls, as the browser makes them: the panel
 * knows the mailbox (a row of its app), checks the owner and asks this server's real agent.
 */
describe('the webmail through the panel', () => {
  let base = '';
  beforeAll(async () => {
    const stamp = new Date().toISOString();
    const managed = {
      server_id: server.id,
      status: 'active' as const,
      error: null,
      error_field: null,
      created_at: stamp,
      updated_at: stamp,
    };
    const appId = await addWebapp(panel.t.app.db, server.id, {
      name: 'site',
      domains: [D],
      sysUser: 'site',
    });
    const box = await panel.t.app.db
      .insertInto('mail_users')
      .values({
        ...managed,
        webapp_id: appId,
        local: 'bob',
        domain: D,
        quota_mb: 0,
        password_hash: null,
        forward_to: '[]',
        keep_copy: 1,
        delete_mail: 0,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    base = `webmail/mail-user/${box.id}`;
  });
  const at = (what: string, query = '') =>
    `${base}/${what}/servers/${server.id}/users/${panel.uid}${query}`;

  it('opens, lists, reads and downloads what the server holds', async () => {
    await deliver(BOB, 'through the panel', ['--attach', '/tmp/report.csv']);
    await sb.waitFor(
      async () =>
        (await page(BOB, 'inbox', 'through the panel')).messages.length ? true : undefined,
      30_000,
      300,
    );
    const folders = await panel.api('GET', at('folders'));
    expect(folders.statusCode, folders.body).toBe(200);
    expect(folders.json().address).toBe(BOB);
    const list = await panel.api('GET', at('messages', '?folder=inbox&search=panel'));
    expect(list.statusCode, list.body).toBe(200);
    const [summary] = list.json().messages as { uid: number; subject: string }[];
    expect(summary?.subject).toBe('through the panel');
    const read = await panel.api('GET', at('message', `?folder=inbox&uid=${summary!.uid}`));
    expect(read.statusCode, read.body).toBe(200);
    const part = read.json().attachments[0].part as string;
    const file = await panel.api(
      'GET',
      at('attachment', `?folder=inbox&uid=${summary!.uid}&part=${part}`),
    );
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('filename="report.csv"');
    expect(file.body).toBe('month,total\nnov,42\n');
  });

  it('sends as the mailbox: the recipient has it, the sender has a copy in Sent', async () => {
    const res = await panel.api('POST', at('send'), {
      message: { to: [ALICE], subject: 'panel to alice', text: 'Hello from the panel.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().accepted).toEqual([ALICE]);
    const got = await sb.waitFor(
      async () =>
        (await page(ALICE, 'inbox', 'panel to alice')).messages.length ? true : undefined,
      30_000,
      300,
    );
    expect(got).toBe(true);
    const sent = await panel.api('GET', at('messages', '?folder=sent'));
    expect(sent.json().messages.map((m: { subject: string }) => m.subject)).toContain(
      'panel to alice',
    );
  });
});
