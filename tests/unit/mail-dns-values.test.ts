import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  mailDnsRecords,
  mailDnsValues,
  mergeSpf,
  quotedTxt,
  spfLookups,
  splitTxt,
  zoneLine,
} from '../../features/mail/dnsValues';
import { inNetwork } from '../../features/mail/dnsSpf';

// A real 2048-bit key as the agent makes it (research mail.md §4): base64 of the SPKI DER.
const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const P = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const input = {
  domain: 'Example.COM.',
  dkimPublicKey: P,
  ipv4: '203.0.113.10',
  mailHost: 'srv1.example.net',
};

describe('the values the email-authentication page shows', () => {
  it('DKIM, SPF, DMARC and MX, each with its name, type, value, TTL and why', () => {
    const v = mailDnsValues(input);
    expect(v.domain).toBe('example.com');
    expect(v.dkim).toMatchObject({
      name: 'mail._domainkey',
      fqdn: 'mail._domainkey.example.com',
      type: 'TXT',
      content: `v=DKIM1; h=sha256; k=rsa; p=${P}`,
      ttl: 3600,
    });
    expect(v.spf).toMatchObject({
      name: '@',
      type: 'TXT',
      content: 'v=spf1 mx a ip4:203.0.113.10 -all',
    });
    expect(v.dmarc).toMatchObject({
      name: '_dmarc',
      fqdn: '_dmarc.example.com',
      content: 'v=DMARC1; p=quarantine; adkim=r; aspf=r',
    });
    expect(v.dmarcOptions.none.content).toBe('v=DMARC1; p=none; rua=mailto:dmarc@example.com');
    expect(v.dmarcOptions.none.why).toContain('dmarc@example.com');
    expect(v.mx.map(zoneLine)).toEqual([
      'example.com. 3600 IN MX 10 mail.example.com.',
      'mail.example.com. 3600 IN A 203.0.113.10',
    ]);
    for (const r of mailDnsRecords(v)) expect(r.why).toMatch(/^\S.{10,}[.]$/);
    expect(mailDnsRecords(v).map((r) => r.kind)).toEqual(['dkim', 'spf', 'dmarc', 'mx', 'mail-a']);
  });

  it('with IPv6: ip6: in SPF and an AAAA for mail.<d>; the gentle DMARC when asked', () => {
    const v = mailDnsValues({ ...input, ipv6: '2001:db8::25', dmarcPolicy: 'none' });
    expect(v.spf.content).toBe('v=spf1 mx a ip4:203.0.113.10 ip6:2001:db8::25 -all');
    expect(v.mx.at(-1)).toMatchObject({ name: 'mail', type: 'AAAA', content: '2001:db8::25' });
    expect(v.dmarc.content).toContain('p=none');
  });

  it('refuses what is not a domain, an address or a key', () => {
    expect(() => mailDnsValues({ ...input, domain: 'not a domain' })).toThrow(/example\.com/);
    expect(() => mailDnsValues({ ...input, ipv4: '300.1.1.1' })).toThrow(/IPv4/);
    expect(() => mailDnsValues({ ...input, dkimPublicKey: 'p=";rm' })).toThrow(/base64/);
  });
});

describe('a long DKIM value for providers that want 255-character strings', () => {
  it('splits into strings of at most 255 that join back to the value', () => {
    const value = mailDnsValues(input).dkim.content;
    expect(value.length).toBeGreaterThan(400);
    const parts = splitTxt(value);
    expect(parts.length).toBe(2);
    expect(parts.every((p) => p.length <= 255)).toBe(true);
    expect(parts.join('')).toBe(value);
    expect(quotedTxt(value)).toBe(`"${parts[0]}" "${parts[1]}"`);
    expect(zoneLine(mailDnsValues(input).dkim)).toBe(
      `mail._domainkey.example.com. 3600 IN TXT "${parts[0]}" "${parts[1]}"`,
    );
    expect(quotedTxt('a "b" \\c')).toBe('"a \\"b\\" \\\\c"');
  });
});

describe('SPF merged into the one the domain has', () => {
  const want = { ipv4: '203.0.113.10' };

  it('none yet: ours whole', () => {
    const m = mergeSpf(['google-site-verification=abc'], want);
    expect(m.content).toBe('v=spf1 mx a ip4:203.0.113.10 -all');
    expect(m.found).toEqual([]);
    expect(m.changed).toBe(true);
  });

  it('adds the missing mechanisms before the all, keeps theirs and their all', () => {
    const m = mergeSpf(['v=spf1 include:_spf.google.com ~all'], want);
    expect(m.content).toBe('v=spf1 include:_spf.google.com mx ip4:203.0.113.10 ~all');
    expect(m.added).toEqual(['mx', 'ip4:203.0.113.10']);
    expect(m.lookups).toBe(2);
    expect(m.warnings).toEqual([]);
  });

  it('changes nothing when the address is covered by a network and mx is there', () => {
    const m = mergeSpf(['v=spf1 mx ip4:203.0.113.0/24 -all'], { ...want, ipv6: '2001:db8::25' });
    expect(m.content).toBe('v=spf1 mx ip4:203.0.113.0/24 ip6:2001:db8::25 -all');
    expect(mergeSpf(['v=spf1 mx ip4:203.0.113.0/24 -all'], want).changed).toBe(false);
    // `-ip4:` forbids the address, `mx:other` is another domain's MX: neither counts.
    expect(mergeSpf(['v=spf1 mx:other.test -ip4:203.0.113.10 -all'], want).content).toBe(
      'v=spf1 mx:other.test -ip4:203.0.113.10 mx ip4:203.0.113.10 -all',
    );
  });

  it('before redirect= when there is no all; at the end when there is neither', () => {
    expect(mergeSpf(['v=spf1 a redirect=_spf.example.com'], want).content).toBe(
      'v=spf1 a mx ip4:203.0.113.10 redirect=_spf.example.com',
    );
    expect(mergeSpf(['v=spf1 a'], want).content).toBe('v=spf1 a mx ip4:203.0.113.10');
  });

  it('two SPF records become one, with a warning; never two v=spf1', () => {
    const m = mergeSpf(['v=spf1 include:a.test -all', 'V=SPF1 include:b.test a ~all'], want);
    expect(m.content).toBe('v=spf1 include:a.test include:b.test a mx ip4:203.0.113.10 -all');
    expect(m.content.match(/v=spf1/gi)).toHaveLength(1);
    expect(m.warnings[0]).toMatch(/2 SPF records.*merged into one/);
  });

  it('counts DNS lookups and warns over 10; warns on +all and ptr', () => {
    const includes = Array.from({ length: 10 }, (_, i) => `include:s${i}.test`).join(' ');
    const m = mergeSpf([`v=spf1 ${includes} -all`], want);
    expect(m.lookups).toBe(11);
    expect(m.warnings.join(' ')).toMatch(/needs 11 DNS lookups; receivers stop at 10/);
    expect(mergeSpf(['v=spf1 ptr +all'], want).warnings.join(' ')).toMatch(/\+all.*ptr/s);
    expect(spfLookups('v=spf1 a mx ip4:1.2.3.4 exists:%{i}.x.test redirect=y.test -all')).toBe(4);
  });

  it('knows which networks hold an address', () => {
    expect(inNetwork('203.0.113.10', '203.0.113.0/24', 4)).toBe(true);
    expect(inNetwork('203.0.114.10', '203.0.113.0/24', 4)).toBe(false);
    expect(inNetwork('2001:db8::25', '2001:db8::/32', 6)).toBe(true);
    expect(inNetwork('2001:db9::25', '2001:db8::/32', 6)).toBe(false);
    expect(inNetwork('::ffff:192.0.2.1', '::ffff:192.0.2.0/120', 6)).toBe(true);
  });
});
