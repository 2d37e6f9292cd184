import { describe, expect, it } from 'vitest';
import {
  type RecordWrite,
  type ZoneRecord,
  applyMailDnsPlan,
  planMailDnsPublish,
} from '../../features/mail/dnsPublish';
import { mailDnsValues } from '../../features/mail/dnsValues';

const P = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtestkeytestkeytestkey';
const values = mailDnsValues({
  domain: 'example.com',
  dkimPublicKey: P,
  ipv4: '203.0.113.10',
  mailHost: 'srv1.example.net',
});
const DKIM = `v=DKIM1; h=sha256; k=rsa; p=${P}`;

let next = 1;
const rec = (type: string, fqdn: string, content: string, priority: number | null = null) =>
  ({ id: next++, type, fqdn, content, priority, ttl: 3600 }) satisfies ZoneRecord;

describe('publishing the mail records into a zone of Stackdeck DNS', () => {
  it('an empty zone: every record created, in the DNS feature terms', () => {
    const plan = planMailDnsPublish(values, 'example.com', [rec('NS', 'example.com', 'ns1.x')]);
    expect(plan.create).toEqual([
      { type: 'TXT', name: 'mail._domainkey', ttl: 3600, content: DKIM },
      { type: 'TXT', name: '@', ttl: 3600, content: 'v=spf1 mx a ip4:203.0.113.10 -all' },
      {
        type: 'TXT',
        name: '_dmarc',
        ttl: 3600,
        content: 'v=DMARC1; p=quarantine; adkim=r; aspf=r',
      },
      { type: 'MX', name: '@', ttl: 3600, content: 'mail.example.com', priority: 10 },
      { type: 'A', name: 'mail', ttl: 3600, content: '203.0.113.10' },
    ]);
    expect(plan).toMatchObject({ update: [], remove: [], notes: [], upToDate: false });
  });

  it('a zone above the mail domain: names relative to that zone', () => {
    const shop = mailDnsValues({ ...values, dkimPublicKey: P, domain: 'shop.example.com' });
    const plan = planMailDnsPublish(shop, 'example.com', []);
    expect(plan.create.map((c) => c.name)).toEqual([
      'mail._domainkey.shop',
      'shop',
      '_dmarc.shop',
      'shop',
      'mail.shop',
    ]);
  });

  it('published already: nothing to write', () => {
    const plan = planMailDnsPublish(values, 'example.com', [
      rec('TXT', 'mail._domainkey.example.com', DKIM),
      rec('TXT', 'example.com', 'v=spf1 mx a ip4:203.0.113.10 -all'),
      rec('TXT', '_dmarc.example.com', 'v=DMARC1; p=none; rua=mailto:dmarc@example.com'),
      rec('MX', 'example.com', 'mail.example.com', 10),
      rec('A', 'mail.example.com', '203.0.113.10'),
    ]);
    // The gentle DMARC published earlier is ours: replaced by the chosen quarantine.
    expect(plan.update).toEqual([
      {
        id: expect.any(Number),
        from: 'v=DMARC1; p=none; rua=mailto:dmarc@example.com',
        to: { type: 'TXT', name: '_dmarc', ttl: 3600, content: values.dmarc.content },
      },
    ]);
    expect(plan.create).toEqual([]);
    const same = planMailDnsPublish(values, 'example.com', [
      rec('TXT', 'mail._domainkey.example.com', DKIM),
      rec('TXT', 'example.com', 'v=spf1 mx a ip4:203.0.113.10 -all'),
      rec('TXT', '_dmarc.example.com', values.dmarc.content),
      rec('MX', 'example.com', 'mail.example.com', 10),
      rec('A', 'mail.example.com', '203.0.113.10'),
    ]);
    expect(same.upToDate).toBe(true);
  });

  it('replaces our earlier records (an old key, an old address), merges SPF, leaves the rest', () => {
    const oldKey = rec('TXT', 'mail._domainkey.example.com', 'v=DKIM1; k=rsa; p=OLDKEY');
    const verify = rec('TXT', 'example.com', 'google-site-verification=abc');
    const spf1 = rec('TXT', 'example.com', 'v=spf1 include:_spf.google.com ~all');
    const spf2 = rec('TXT', 'example.com', 'v=spf1 include:mailgun.org ~all');
    const theirDmarc = rec('TXT', '_dmarc.example.com', 'v=DMARC1; p=reject; rua=mailto:x@y.z');
    const google = rec('MX', 'example.com', 'aspmx.l.google.com', 1);
    const oldA = rec('A', 'mail.example.com', '198.51.100.7');
    const www = rec('A', 'www.example.com', '198.51.100.7');
    const plan = planMailDnsPublish(values, 'example.com', [
      oldKey,
      verify,
      spf1,
      spf2,
      theirDmarc,
      google,
      oldA,
      www,
    ]);
    expect(plan.update).toEqual([
      { id: oldKey.id, from: oldKey.content, to: expect.objectContaining({ content: DKIM }) },
      {
        id: spf1.id,
        from: spf1.content,
        to: expect.objectContaining({
          name: '@',
          content: 'v=spf1 include:_spf.google.com include:mailgun.org mx ip4:203.0.113.10 ~all',
        }),
      },
      {
        id: oldA.id,
        from: '198.51.100.7',
        to: expect.objectContaining({ content: '203.0.113.10' }),
      },
    ]);
    expect(plan.remove).toEqual([
      { id: spf2.id, type: 'TXT', fqdn: 'example.com', content: spf2.content },
    ]);
    expect(plan.create).toEqual([
      { type: 'MX', name: '@', ttl: 3600, content: 'mail.example.com', priority: 10 },
    ]);
    const touched = new Set([...plan.update.map((u) => u.id), ...plan.remove.map((r) => r.id)]);
    for (const untouched of [verify, theirDmarc, google, www])
      expect(touched.has(untouched.id)).toBe(false);
    expect(plan.notes).toEqual([
      'The domain has 2 SPF records; receivers treat that as an error, so they are merged into one.',
      "The domain's SPF record keeps its terms; mx ip4:203.0.113.10 added.",
      'The domain has its own DMARC record (v=DMARC1; p=reject; rua=mailto:x@y.z); it is kept as it is.',
      'MX records also point at aspmx.l.google.com; they are kept, and mail may go there. Remove them for all mail to come to this server.',
      'mail.example.com pointed at 198.51.100.7; it now points at 203.0.113.10.',
    ]);
  });

  it('a CNAME at mail.<d> is said, not removed; a foreign AAAA is said', () => {
    const cname = planMailDnsPublish(values, 'example.com', [
      rec('CNAME', 'mail.example.com', 'ghs.googlehosted.com'),
    ]);
    expect(cname.create.map((c) => c.type)).not.toContain('A');
    expect(cname.notes.at(-1)).toBe(
      'mail.example.com is a CNAME to ghs.googlehosted.com: remove it, then publish again for its address records.',
    );
    const aaaa = planMailDnsPublish(values, 'example.com', [
      rec('AAAA', 'mail.example.com', '2001:db8::99'),
    ]);
    expect(aaaa.notes.at(-1)).toMatch(/IPv6 addresses \(2001:db8::99\) that are not this server's/);
    expect(aaaa.remove).toEqual([]);
  });

  it('applies updates, then creations, then removals', async () => {
    const calls: string[] = [];
    const plan = planMailDnsPublish(values, 'example.com', [
      rec('TXT', 'example.com', 'v=spf1 -all'),
      rec('TXT', 'example.com', 'v=spf1 a -all'),
    ]);
    await applyMailDnsPlan(plan, {
      create: async (r: RecordWrite) => calls.push(`create ${r.type} ${r.name}`),
      update: async (id, r) => calls.push(`update ${id} ${r.content}`),
      remove: async (id) => calls.push(`remove ${id}`),
    });
    expect(calls[0]).toMatch(/^update \d+ v=spf1 a mx ip4:203\.0\.113\.10 -all$/);
    expect(calls.slice(1, -1)).toEqual([
      'create TXT mail._domainkey',
      'create TXT _dmarc',
      'create MX @',
      'create A mail',
    ]);
    expect(calls.at(-1)).toMatch(/^remove \d+$/);
  });
});
