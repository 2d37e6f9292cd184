import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { hash, opCaller } from './support/mail';

/**
 * Mail on a real server: the agent's mail ops run in a sandbox with Debian's Postfix, Dovecot
 * and OpenDKIM; swaks, python's smtplib and imapflow/mailauth (tests/system/support/mailClient.mjs,
 * run inside the sandbox) are the outside world. A client bound to 127.0.0.2 is "the internet"
 * (mynetworks is 127.0.0.1 only). One sandbox for the whole file. Forwarders and the catch-all
 * also go through the panel's API, whose forward set (mailboxes, forwarders, catch-all) the
 * real agent gets.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const D = 'example.test';
const D2 = 'other.test';
const CLIENT = path.join(import.meta.dirname, 'support/mailClient.mjs');

const call = opCaller(() => ({ panel, server }));

/** swaks inside the sandbox, from 127.0.0.2 to port 25 unless told otherwise. */
async function swaks(args: string[]) {
  const res = await sb.exec(
    [
      'swaks',
      '--server',
      '127.0.0.1',
      '--local-interface',
      '127.0.0.2',
      '--timeout',
      '20',
      ...args,
    ],
    { timeoutMs: 60_000 },
  );
  return { code: res.code, out: res.stdout + res.stderr };
}

const send = (from: string, to: string, subject: string, extra: string[] = []) =>
  swaks(['--from', from, '--to', to, '--header', `Subject: ${subject}`, ...extra]);

interface Message {
  subject: string;
  from: string;
  to: string[];
  source?: string;
}

async function imap(args: Record<string, unknown>) {
  const res = await sb.exec(['node', CLIENT, 'imap', JSON.stringify(args)], { timeoutMs: 60_000 });
  if (res.code !== 0) throw new Error(res.stderr);
  return JSON.parse(res.stdout) as { ok: boolean; error?: string; messages?: Message[] };
}

const inbox = async (user: string, pass: string, source = false) => {
  const r = await imap({ user, pass, source });
  if (!r.ok) throw new Error(`${user}: ${r.error}`);
  return r.messages!;
};

/** Delivery is asynchronous (queue, LMTP): waits for a subject in a mailbox. */
const arrives = (user: string, pass: string, subject: string): Promise<Message> =>
  sb.waitFor(
    async () => (await inbox(user, pass, true)).find((m) => m.subject === subject),
    30_000,
    300,
  ) as Promise<Message>;

const PW = { alice: 'alice password 1', bob: 'bob password 1', carol: 'carol password 1' };
const H: Record<string, string> = {};
let dkimKey = '';

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'mail', ['postfix', 'dovecot']));
  for (const [k, v] of Object.entries(PW)) H[k] = await hash(v);
  // "Local" IMAP from 127.0.0.2: Dovecot then wants TLS, as from anywhere else.
  await sb.execOk([
    'bash',
    '-c',
    'setsid socat TCP-LISTEN:1143,bind=127.0.0.1,reuseaddr,fork TCP:127.0.0.1:143,bind=127.0.0.2 </dev/null >/dev/null 2>&1 &',
  ]);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('mail on a sandbox server', () => {
  it('preflight: a FQDN that resolves here; port 25 only checked towards a given probe', async () => {
    const bad = await call('mail.preflight', { hostname: 'localhost' });
    expect(bad.hostname.ok).toBe(false);
    const notChecked = await call('mail.preflight', { hostname: 'localhost' });
    expect(notChecked.port25.message).toMatch(/not checked/);
    const closed = await call('mail.preflight', {
      hostname: 'localhost',
      probe: { host: '127.0.0.1', port: 9 },
    });
    expect(closed.port25.ok).toBe(false);
  });

  it('enables mail (idempotent) and makes a domain with a DKIM key', async () => {
    const first = await call('mail.enable', { hostname: 'mail.example.test', smarthost: null });
    expect(first.changed).toBe(true);
    const again = await call('mail.enable', { hostname: 'mail.example.test', smarthost: null });
    expect(again.changed).toBe(false);
    const main = (await sb.execOk(['postconf', 'default_transport', 'relay_transport'])).stdout;
    expect(main).toBe('default_transport = smtp\nrelay_transport = relay\n');
    const d = await call('mail.domain.set', { domain: D });
    expect(d.selector).toBe('mail');
    expect(d.dkim_public_key).toMatch(/^MIIB/);
    dkimKey = d.dkim_public_key;
    expect((await call('mail.domain.set', { domain: D })).dkim_public_key).toBe(dkimKey);
    await call('mail.domain.set', { domain: D2 });
    expect(
      (
        await sb.execOk(['stat', '-c', '%a %U:%G', `/etc/stackdeck/mail/domains/${D}/passwd`])
      ).stdout.trim(),
    ).toBe('640 root:dovecot');
    const signing = (await sb.execOk(['cat', '/etc/opendkim/SigningTable'])).stdout;
    expect(signing).toBe(`*@${D} mail._domainkey.${D}\n*@${D2} mail._domainkey.${D2}\n`);
  }, 240_000);

  it('delivers to a new mailbox from outside; unknown users get 550, relaying is refused', async () => {
    let id = 1;
    for (const [local, domain] of [
      ['alice', D],
      ['bob', D],
      ['carol', D2],
    ] as const)
      await call('mail.mailbox.set', {
        domain,
        id: id++,
        local,
        password_hash: H[local]!,
        quota_mb: 0,
      });
    const sent = await send('someone@far.test', `alice@${D}`, 'hello alice');
    expect(sent.code, sent.out).toBe(0);
    const got = await arrives(`alice@${D}`, PW.alice, 'hello alice');
    expect(got.from).toBe('someone@far.test');

    const unknown = await swaks(['--from', 'x@far.test', '--to', `nobody@${D}`, '-q', 'RCPT']);
    expect(unknown.out).toMatch(/<\*\* 550 5\.1\.1/);
    const relay = await swaks(['--from', 'x@far.test', '--to', 'y@elsewhere.test', '-q', 'RCPT']);
    expect(relay.out).toMatch(/<\*\* 554 5\.7\.1 .*Relay access denied/);
    expect(await call('mail.mailbox.list', { domain: D })).toEqual([
      { local: 'alice', quota_mb: 0 },
      { local: 'bob', quota_mb: 0 },
    ]);
  }, 120_000);

  it('refuses at RCPT what would exceed the quota (SIZE), and reports usage', async () => {
    await call('mail.mailbox.set', {
      domain: D,
      id: 2,
      local: 'bob',
      password_hash: null,
      quota_mb: 1,
    });
    const py = [
      'import smtplib',
      "s = smtplib.SMTP('127.0.0.1', 25, source_address=('127.0.0.2', 0))",
      's.ehlo()',
      "s.mail('x@far.test', ['SIZE=3000000'])",
      `print(s.rcpt('bob@${D}')[0])`,
      "s.rset(); s.mail('x@far.test', ['SIZE=3000'])",
      `print(s.rcpt('bob@${D}')[0])`,
      's.quit()',
    ].join('\n');
    // Seen once in three runs: the first RCPT right after the quota change got 250 while
    // Dovecot's own answer a moment later was 552. Retried for a few seconds, and said.
    const started = Date.now();
    let res = await sb.execOk(['python3', '-c', py]);
    while (!res.stdout.startsWith('552') && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 250));
      res = await sb.execOk(['python3', '-c', py]);
    }
    if (Date.now() - started > 1000)
      console.log(`quota refusal took ${Date.now() - started} ms to show at RCPT`);
    const policy = [
      'import socket',
      "s = socket.create_connection(('127.0.0.1', 12340))",
      `s.sendall(b'request=smtpd_access_policy\\nprotocol_state=RCPT\\nrecipient=bob@${D}\\nsize=3000000\\n\\n')`,
      'print(s.recv(1000))',
    ].join('\n');
    const why = [
      (await sb.exec(['doveadm', 'quota', 'get', '-u', `bob@${D}`])).stdout,
      (await sb.exec(['doveadm', 'user', `bob@${D}`])).stdout,
      (await sb.exec(['python3', '-c', policy])).stdout,
    ].join('\n');
    expect(res.stdout.split('\n').slice(0, 2), why).toEqual(['552', '250']);
    const usage = await call('mail.usage', { domain: D });
    const alice = usage.find((u) => u.local === 'alice')!;
    expect(alice.bytes).toBeGreaterThan(0);
    expect(usage.find((u) => u.local === 'bob')!.quota_limit_kib).toBe(1024);
  }, 60_000);

  it('forwards to the target; a catch-all takes unknown users and leaves real ones', async () => {
    await call('mail.forwards.set', {
      domain: D,
      forwards: [
        { id: 1, source: 'info', targets: [`carol@${D2}`], keep_copy: false },
        { id: 2, source: '@', targets: [`bob@${D}`], keep_copy: false },
      ],
    });
    expect((await send('x@far.test', `info@${D}`, 'for info')).code).toBe(0);
    expect((await send('x@far.test', `random123@${D}`, 'for random')).code).toBe(0);
    expect((await send('x@far.test', `alice@${D}`, 'for alice')).code).toBe(0);
    await arrives(`carol@${D2}`, PW.carol, 'for info');
    await arrives(`bob@${D}`, PW.bob, 'for random');
    await arrives(`alice@${D}`, PW.alice, 'for alice');
    const bobs = (await inbox(`bob@${D}`, PW.bob)).map((m) => m.subject);
    expect(bobs).not.toContain('for alice');
  }, 90_000);

  it('answers once per sender while on vacation, also for mail to an alias', async () => {
    await call('mail.forwards.set', {
      domain: D,
      forwards: [{ id: 3, source: 'sales', targets: [`alice@${D}`], keep_copy: false }],
    });
    const res = await call('mail.vacation.set', {
      domain: D,
      local: 'alice',
      vacation: {
        local: 'alice',
        subject: 'Away "for" a \\ while',
        body: 'I am away.\nBack soon.',
        starts: null,
        ends: null,
        days: 1,
      },
    });
    expect(res.active).toBe(true);
    const script = (await sb.execOk(['doveadm', 'sieve', 'get', '-u', `alice@${D}`, 'vacation']))
      .stdout;
    expect(script).toContain(`:addresses ["alice@${D}", "sales@${D}"]`);
    await send(`carol@${D2}`, `sales@${D}`, 'first from carol');
    await arrives(`alice@${D}`, PW.alice, 'first from carol');
    await send(`carol@${D2}`, `alice@${D}`, 'second from carol');
    await arrives(`alice@${D}`, PW.alice, 'second from carol');
    const reply = await arrives(`carol@${D2}`, PW.carol, 'Away "for" a \\ while');
    expect(reply.source).toMatch(/Auto-Submitted: auto-replied/i);
    await new Promise((r) => setTimeout(r, 2000));
    const replies = (await inbox(`carol@${D2}`, PW.carol)).filter((m) =>
      m.subject.startsWith('Away'),
    );
    expect(replies).toHaveLength(1);
    expect(
      (await call('mail.vacation.set', { domain: D, local: 'alice', vacation: null })).active,
    ).toBe(false);
  }, 120_000);

  it('through the panel: a forwarder reaches its target, the catch-all only unknown users', async () => {
    // The panel's own forward set (mailboxes, forwarders, catch-all) on a domain of an app.
    const D3 = 'forward.test';
    const stamp = new Date().toISOString();
    const db = panel.t.app.db;
    await db
      .insertInto('mail_servers')
      .values({ server_id: server.id, enabled: 1, updated_at: stamp })
      .onConflict((oc) => oc.column('server_id').doUpdateSet({ enabled: 1 }))
      .execute();
    const app = await db
      .insertInto('webapps')
      .values({
        server_id: server.id,
        status: 'active',
        error: null,
        error_field: null,
        created_at: stamp,
        updated_at: stamp,
        name: 'forward',
        webapp_type: 'custom',
        stack_type: 'nginx',
        php_version: '8.2',
        domains: JSON.stringify([D3]),
        web_root: '',
        php_settings: '{}',
        sys_user: 'forward',
        parent_id: null,
        cache: null,
        limits: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const at = (p: string, query = '') => `${p}/servers/${server.id}/users/${panel.uid}${query}`;
    const wsid = `?wsid=${app.id}`;
    for (const local of ['dan', 'erin']) {
      const res = await panel.api('POST', at('mail-user', wsid), {
        local,
        domain: D3,
        password: `${local} password 1`,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().status).toBe('active');
    }
    const sales = await panel.api('POST', at('mail-forwarder', wsid), {
      local: 'sales',
      domain: D3,
      targets: [`dan@${D3}`],
    });
    expect(sales.statusCode, sales.body).toBe(201);
    expect(sales.json().status).toBe('active');
    const all = await panel.api('PUT', at('mail-catchall', wsid), {
      domain: D3,
      targets: [`erin@${D3}`],
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().status).toBe('active');

    expect((await send('x@far.test', `sales@${D3}`, 'for sales')).code).toBe(0);
    expect((await send('x@far.test', `anyone7@${D3}`, 'for anyone')).code).toBe(0);
    expect((await send('x@far.test', `dan@${D3}`, 'for dan')).code).toBe(0);
    await arrives(`dan@${D3}`, 'dan password 1', 'for sales');
    await arrives(`erin@${D3}`, 'erin password 1', 'for anyone');
    await arrives(`dan@${D3}`, 'dan password 1', 'for dan');
    const erins = (await inbox(`erin@${D3}`, 'erin password 1')).map((m) => m.subject);
    expect(erins).not.toContain('for dan');
    expect(erins).not.toContain('for sales');

    // Without its catch-all, the domain refuses an unknown user again; the forwarder stays.
    const off = await panel.api('DELETE', at('mail-catchall', `${wsid}&domain=${D3}`));
    expect(off.statusCode, off.body).toBe(200);
    const unknown = await swaks(['--from', 'x@far.test', '--to', `anyone7@${D3}`, '-q', 'RCPT']);
    expect(unknown.out).toMatch(/<\*\* 550 5\.1\.1/);
    const known = await swaks(['--from', 'x@far.test', '--to', `sales@${D3}`, '-q', 'RCPT']);
    expect(known.out).toMatch(/<- {2}250 /);
  }, 120_000);

  it('signs mail submitted on 587 with AUTH: DKIM verifies with the published key', async () => {
    const sent = await sb.exec(
      [
        'swaks',
        '--server',
        '127.0.0.1',
        '--port',
        '587',
        '--tls',
        '--auth',
        'PLAIN',
        '--auth-user',
        `alice@${D}`,
        '--auth-password',
        PW.alice,
        '--from',
        `alice@${D}`,
        '--to',
        `carol@${D2}`,
        '--header',
        'Subject: signed',
      ],
      { timeoutMs: 60_000 },
    );
    expect(sent.code, sent.stdout).toBe(0);
    const msg = await arrives(`carol@${D2}`, PW.carol, 'signed');
    expect(msg.source).toMatch(/DKIM-Signature: .*d=example\.test/s);
    const txt = { [`mail._domainkey.${D}`]: `v=DKIM1; k=rsa; p=${dkimKey}` };
    const res = await sb.execOk(['node', CLIENT, 'dkim', JSON.stringify({ raw: msg.source, txt })]);
    expect(JSON.parse(res.stdout)).toEqual({ results: [{ domain: D, result: 'pass' }] });
    const tampered = msg.source!.replace('Subject: signed', 'Subject: changed');
    const bad = await sb.execOk(['node', CLIENT, 'dkim', JSON.stringify({ raw: tampered, txt })]);
    expect(JSON.parse(bad.stdout).results[0].result).toBe('fail');
  }, 90_000);

  it('a new password works at once and the old one fails', async () => {
    await call('mail.mailbox.set', {
      domain: D,
      id: 1,
      local: 'alice',
      password_hash: await hash('new alice password'),
      quota_mb: 0,
    });
    expect((await imap({ user: `alice@${D}`, pass: 'new alice password' })).ok).toBe(true);
    expect((await imap({ user: `alice@${D}`, pass: PW.alice })).ok).toBe(false);
    PW.alice = 'new alice password';
  }, 60_000);

  it('the master user opens a mailbox from 127.0.0.1 only, with the right secret only', async () => {
    const secret = (await sb.execOk(['cat', '/etc/stackdeck/mail/master.secret'])).stdout.trim();
    expect(
      (await sb.execOk(['stat', '-c', '%a %U', '/etc/stackdeck/mail/master.secret'])).stdout.trim(),
    ).toBe('600 root');
    const as = (pass: string, extra: Record<string, unknown> = {}) =>
      imap({ user: 'stackdeck', pass, authzid: `alice@${D}`, ...extra });
    const ok = await as(secret);
    expect(ok.ok, ok.error).toBe(true);
    expect(ok.messages!.some((m) => m.subject === 'hello alice')).toBe(true);
    expect((await as(`${secret}x`)).ok).toBe(false);
    expect((await as('')).ok).toBe(false);
    // From 127.0.0.2 (through the socat relay), over STARTTLS: refused.
    const far = await as(secret, { port: 1143, secure: true });
    expect(far.ok).toBe(false);
    // The same relay lets the mailbox's own password in: the refusal is the master's.
    expect((await imap({ user: `alice@${D}`, pass: PW.alice, port: 1143, secure: true })).ok).toBe(
      true,
    );
    // No master login as a mailbox the server lacks.
    expect((await imap({ user: 'stackdeck', pass: secret, authzid: `ghost@${D}` })).ok).toBe(false);
  }, 60_000);

  it("bans a source after three failed mail logins (the Security page's IMAP limit); another still logs in", async () => {
    // Debian 12's rsyslog has no init.d script: the daemon writes /var/log/mail.log, which the
    // jail polls in a sandbox (a systemd server reads the journal).
    await sb.execOk(['bash', '-c', 'pgrep -x rsyslogd >/dev/null || (rsyslogd && sleep 1)']);
    const limit = (value: number) =>
      panel.api('PATCH', `csf/imap-max/servers/${server.id}/users/${panel.uid}`, {
        value,
        ban_time: 600,
      });
    const set = await limit(3);
    expect(set.statusCode, set.body).toBe(200);
    // The jail watches the log once fail2ban has started it: failures before that are not seen.
    await sb.waitFor(
      async () =>
        (await sb.exec(['fail2ban-client', 'status', 'stackdeck-imap'])).code === 0 || undefined,
      30_000,
    );
    // IMAP over STARTTLS (Dovecot wants TLS from anywhere but 127.0.0.1), from a given source.
    const login = (source: string, pass: string) =>
      sb.exec(
        [
          'curl',
          '-sS',
          '-k',
          '--ssl-reqd',
          '--max-time',
          '15',
          '--interface',
          source,
          '--user',
          `alice@${D}:${pass}`,
          'imap://127.0.0.1/',
        ],
        { timeoutMs: 30_000 },
      );
    for (let i = 1; i <= 3; i++) {
      const res = await login('127.0.0.21', 'not the password');
      expect(`${i}: ${res.code} ${res.stderr}`).toMatch(new RegExp(`^${i}: 67 `));
    }
    await sb.waitFor(
      async () =>
        (await sb.exec(['fail2ban-client', 'status', 'stackdeck-imap'])).stdout.includes(
          '127.0.0.21',
        ) || undefined,
      60_000,
    );
    const banned = await login('127.0.0.21', PW.alice);
    expect(banned.code, banned.stderr).not.toBe(0);
    const other = await login('127.0.0.22', PW.alice);
    expect(other.code, other.stderr).toBe(0);
    const off = await limit(0);
    expect(off.statusCode, off.body).toBe(200);
  }, 120_000);

  it('set-many writes 1,000 mailboxes with each file once', async () => {
    const h = await hash('bulk password 1');
    const mailboxes = Array.from({ length: 1000 }, (_, i) => ({
      id: 1000 + i,
      local: `user${i}`,
      // One hash for all: the panel's hashing is not what is timed here.
      password_hash: h,
      quota_mb: 100,
    }));
    const started = Date.now();
    expect(await call('mail.mailbox.set-many', { domain: D2, mailboxes })).toEqual({ count: 1000 });
    const ms = Date.now() - started;
    console.log(`mail.mailbox.set-many: 1,000 mailboxes in ${ms} ms`);
    const lines = (await sb.execOk(['wc', '-l', `/etc/stackdeck/mail/domains/${D2}/passwd`]))
      .stdout;
    expect(lines.trim().split(' ')[0]).toBe('1001');
    const sent = await send('x@far.test', `user999@${D2}`, 'to the last');
    expect(sent.code, sent.out).toBe(0);
    await arrives(`user999@${D2}`, 'bulk password 1', 'to the last');
  }, 180_000);

  it('removes a mailbox and a domain, then disables mail', async () => {
    expect(
      await call('mail.mailbox.remove', { domain: D, local: 'bob', delete_mail: false }),
    ).toEqual({ removed: true });
    expect(
      (await sb.exec(['bash', '-c', `ls /var/vmail/.trash | grep -q '^${D}-bob-'`])).code,
    ).toBe(0);
    expect(await call('mail.domain.remove', { domain: D2, delete_mail: true })).toEqual({
      removed: true,
    });
    expect((await sb.exec(['test', '-e', `/var/vmail/${D2}`])).code).not.toBe(0);
    expect(await call('mail.disable', {})).toEqual({ changed: true });
    expect((await sb.exec(['test', '-e', '/etc/stackdeck/mail/master.secret'])).code).not.toBe(0);
    expect((await sb.exec(['test', '-e', `/etc/stackdeck/mail/domains/${D}/passwd`])).code).toBe(0);
    expect((await sb.exec(['postconf', '-nh', 'virtual_transport'])).stdout.trim()).toBe('');
    await expect(call('mail.usage', { domain: D })).rejects.toThrow(/not enabled/);
    expect((await sb.exec(['test', '-d', `/var/vmail/${D}/alice`])).code).toBe(0);
  }, 120_000);
});
