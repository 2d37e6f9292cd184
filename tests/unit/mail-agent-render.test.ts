import { describe, expect, it } from 'vitest';
import {
  postconfMain,
  postconfMaster,
  renderDkimTables,
  renderDovecotConf,
} from '../../features/mail/agentConfigs';
import { addressesOf, renderMaps } from '../../features/mail/agentMapsRender';
import { mergeMailboxes, parsePasswd, renderPasswd } from '../../features/mail/agentPasswd';
import { parseQuotaTab } from '../../features/mail/agentUsage';
import { renderVacation, sieveString } from '../../features/mail/agentVacationScript';

const HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

describe('dovecot.conf', () => {
  it('has sieve among the protocols only with managesieved', () => {
    expect(renderDovecotConf({ hostname: 'h.test', managesieve: true })).toMatch(
      /^protocols = imap lmtp sieve$/m,
    );
    const without = renderDovecotConf({ hostname: 'h.test', managesieve: false });
    expect(without).toMatch(/^protocols = imap lmtp$/m);
    expect(without).not.toContain('managesieve-login');
  });

  it('binds the master user to loopback-checked passdb and opens each mailbox block on its own line', () => {
    const conf = renderDovecotConf({ hostname: 'h.test', managesieve: true });
    expect(conf).toContain('result_success = continue');
    expect(conf).toContain('master = yes');
    expect(conf).not.toMatch(/\{ special_use/);
    expect(conf).toContain('postmaster_address = postmaster@h.test');
    expect(conf).toContain('port = 12340');
  });
});

describe('postconf argv', () => {
  it('resets the "Local only" transports and sets each key once', () => {
    const argv = postconfMain('mail.h.test', null);
    expect(argv[0]).toBe('-e');
    expect(argv).toContain('default_transport=smtp');
    expect(argv).toContain('relay_transport=relay');
    expect(argv).toContain('relayhost=');
    const keys = argv.slice(1).map((kv) => kv.split('=')[0]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('relays through a smarthost with SASL and TLS', () => {
    const argv = postconfMain('h.test', {
      host: 'smtp.relay.test',
      port: 587,
      username: 'u',
      password: 'p',
    });
    expect(argv).toContain('relayhost=[smtp.relay.test]:587');
    expect(argv).toContain('smtp_tls_security_level=encrypt');
    expect(argv.join(' ')).not.toContain('secret-pw');
  });

  it('declares 587 and 465 with SASL only over TLS', () => {
    const [m1, p1, m2, p2] = postconfMaster();
    expect(m1).toEqual(['-M', 'submission/inet=submission inet n - y - - smtpd']);
    expect(p1).toContain('submission/inet/smtpd_tls_auth_only=yes');
    expect(m2![1]).toMatch(/^submissions\/inet=/);
    expect(p2).toContain('submissions/inet/smtpd_tls_wrappermode=yes');
  });
});

describe('DKIM tables', () => {
  it('lists each domain with its own key, never a wildcard domain', () => {
    const t = renderDkimTables(['b.test', 'a.test']);
    expect(t.signingTable).toBe(
      '*@a.test mail._domainkey.a.test\n*@b.test mail._domainkey.b.test\n',
    );
    expect(t.keyTable).toContain(
      'mail._domainkey.a.test a.test:mail:/etc/opendkim/keys/a.test/mail.private',
    );
    expect(renderDkimTables([]).signingTable).toBe('');
  });
});

describe('passwd-file', () => {
  it('round-trips the panel lines and leaves others out', () => {
    const text = renderPasswd([{ id: 7, local: 'alice', hash: HASH, quotaMb: 100 }]);
    expect(text).toBe(`alice:{ARGON2ID}${HASH}:::stackdeck-7:::userdb_quota_rule=*:storage=100M\n`);
    expect(parsePasswd(`${text}root:x:0:0::::\n`)).toEqual([
      { id: 7, local: 'alice', hash: HASH, quotaMb: 100 },
    ]);
  });

  it('keeps a hash when none is sent, refuses another id on the same name, renames by id', () => {
    const cur = [
      { id: 1, local: 'a', hash: HASH, quotaMb: 0 },
      { id: 2, local: 'b', hash: HASH, quotaMb: 0 },
    ];
    const keep = mergeMailboxes(cur, [{ id: 1, local: 'a', password_hash: null, quota_mb: 5 }]);
    expect(keep.entries[0]).toEqual({ id: 1, local: 'a', hash: HASH, quotaMb: 5 });
    expect(
      mergeMailboxes(cur, [{ id: 3, local: 'b', password_hash: HASH, quota_mb: 0 }]).problems,
    ).toEqual([{ field: 'local', message: 'The server has another mailbox b' }]);
    expect(
      mergeMailboxes(cur, [{ id: 4, local: 'c', password_hash: null, quota_mb: 0 }]).problems[0]!
        .field,
    ).toBe('password');
    const renamed = mergeMailboxes(cur, [{ id: 1, local: 'z', password_hash: null, quota_mb: 0 }]);
    expect(renamed.entries.map((e) => e.local)).toEqual(['b', 'z']);
  });
});

describe('Postfix maps', () => {
  const domains = [
    {
      domain: 'd.test',
      locals: ['alice', 'bob'],
      forwards: [
        { id: 1, source: 'info', targets: ['alice@d.test', 'x@far.test'], keep_copy: false },
        { id: 2, source: 'bob', targets: ['x@far.test'], keep_copy: true },
        { id: 3, source: '@', targets: ['alice@d.test'], keep_copy: false },
      ],
    },
    { domain: 'e.test', locals: [], forwards: [] },
  ];

  it('maps a catch-all with every real mailbox to itself, a kept copy first', () => {
    const m = renderMaps(domains);
    expect(m.vdomains).toBe('d.test OK\ne.test OK\n');
    expect(m.vmailboxes).toBe('alice@d.test OK\nbob@d.test OK\n');
    expect(m.valiases.split('\n')).toEqual([
      'alice@d.test alice@d.test',
      'bob@d.test bob@d.test,x@far.test',
      'info@d.test alice@d.test,x@far.test',
      '@d.test alice@d.test',
      '',
    ]);
    expect(m.sender_login).toContain('info@d.test alice@d.test\n');
    expect(m.sender_login).toContain('alice@d.test alice@d.test\n');
  });

  it('gives vacation every alias of a mailbox, not the catch-all', () => {
    expect(addressesOf('alice@d.test', domains)).toEqual(['alice@d.test', 'info@d.test']);
  });
});

describe('Sieve vacation', () => {
  it('escapes quotes and backslashes in quoted strings', () => {
    expect(sieveString('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
  });

  it('keeps the subject on one line, lists the addresses, bounds the dates', () => {
    const s = renderVacation(
      {
        subject: 'Out\r\n"now"',
        body: 'line 1\nline "2"',
        starts: '2026-01-01',
        ends: null,
        days: 3,
      },
      ['a@d.test', 'info@d.test'],
    );
    expect(s).toBe(
      'require ["vacation", "date", "relational"];\n' +
        'if allof(currentdate :value "ge" "date" "2026-01-01") {\n' +
        '  vacation :days 3 :subject "Out \\"now\\"" :addresses ["a@d.test", "info@d.test"] "line 1\r\nline \\"2\\"";\n' +
        '}\n',
    );
    expect(
      renderVacation({ subject: 's', body: 'b', starts: null, ends: null, days: 1 }, ['a@d.test']),
    ).toBe('require ["vacation"];\nvacation :days 1 :subject "s" :addresses ["a@d.test"] "b";\n');
  });
});

describe('doveadm quota', () => {
  it('reads the STORAGE row of the tab format', () => {
    const text =
      'Quota name\tType\tValue\tLimit\t%\nUser quota\tSTORAGE\t939\t1024\t91\nUser quota\tMESSAGE\t3\t-\t0\n';
    expect(parseQuotaTab(text)).toEqual({ used: 939, limit: 1024 });
    expect(
      parseQuotaTab('Quota name\tType\tValue\tLimit\t%\nUser quota\tSTORAGE\t5\t-\t0\n'),
    ).toEqual({
      used: 5,
      limit: null,
    });
  });
});

describe('mail.enable smarthost', () => {
  it('refuses what would forge a line of the SASL map', async () => {
    const { ops } = await import('../../features/mail/ops');
    const parse = (username: string, password: string) =>
      ops['mail.enable'].args.safeParse({
        hostname: 'h.test',
        smarthost: { host: 'smtp.relay.test', port: 587, username, password },
      }).success;
    expect(parse('user@relay.test', 'a pass word')).toBe(true);
    expect(parse('a:b', 'x')).toBe(false);
    expect(parse('user', 'x\nrelay.test y:z')).toBe(false);
  });
});
