import { describe, expect, it } from 'vitest';
import { dnsRecordBody, dnsRecordInput } from '../../features/dns/schemas';
import { fromCloudflare, toCloudflare } from '../../features/dns/serverCloudflare';
import { fromPdns, toPdnsContent } from '../../features/dns/serverPowerdns';
import type { RecordData } from '../../features/dns/serverProvider';
import { absoluteName, relativeName } from '../../features/dns/serverNames';

const rec = (r: Partial<RecordData> & Pick<RecordData, 'type' | 'content'>): RecordData => ({
  fqdn: 'x.example.com',
  ttl: 3600,
  priority: null,
  weight: null,
  port: null,
  flags: null,
  tag: null,
  ...r,
});

describe('record names', () => {
  it('turns names relative to the zone into absolute ones and back', () => {
    expect(absoluteName('@', 'example.com')).toBe('example.com');
    expect(absoluteName('www', 'example.com')).toBe('www.example.com');
    expect(absoluteName('www.example.com', 'example.com')).toBe('www.example.com');
    expect(absoluteName('www.example.com.', 'example.com')).toBe('www.example.com');
    expect(() => absoluteName('www.other.com.', 'example.com')).toThrow(/inside example\.com/);
    expect(relativeName('example.com', 'example.com')).toBe('@');
    expect(relativeName('_sip._tcp.example.com', 'example.com')).toBe('_sip._tcp');
  });
});

describe('PowerDNS presentation format', () => {
  const cases: [RecordData, string][] = [
    [rec({ type: 'A', content: '203.0.113.1' }), '203.0.113.1'],
    [rec({ type: 'AAAA', content: '2001:DB8:0:0:0:0:0:1' }), '2001:db8::1'],
    [rec({ type: 'CNAME', content: 'www.example.com' }), 'www.example.com.'],
    [rec({ type: 'MX', priority: 5, content: 'mail.example.com' }), '5 mail.example.com.'],
    [rec({ type: 'TXT', content: 'say "hi" \\o/' }), '"say \\"hi\\" \\\\o/"'],
    [
      rec({ type: 'SRV', priority: 1, weight: 2, port: 443, content: 't.example.com' }),
      '1 2 443 t.example.com.',
    ],
    [
      rec({ type: 'CAA', flags: 128, tag: 'issue', content: 'ca.example' }),
      '128 issue "ca.example"',
    ],
  ];
  it.each(cases)('%j <-> %s', (record, content) => {
    expect(toPdnsContent(record)).toBe(content);
    const back = fromPdns(record.fqdn, record.type, record.ttl, content);
    expect(toPdnsContent(back)).toBe(content);
  });

  it('splits long TXT text into strings of 255 and joins them back', () => {
    const text = 'a'.repeat(600);
    const content = toPdnsContent(rec({ type: 'TXT', content: text }));
    expect(content.match(/"/g)).toHaveLength(6);
    expect(fromPdns('x', 'TXT', 60, content).content).toBe(text);
  });
});

describe('Cloudflare record bodies', () => {
  it('puts SRV and CAA fields in data and reads them back', () => {
    const srv = rec({ type: 'SRV', priority: 1, weight: 2, port: 443, content: 't.example.com' });
    expect(toCloudflare(srv)).toEqual({
      type: 'SRV',
      name: 'x.example.com',
      ttl: 3600,
      data: { priority: 1, weight: 2, port: 443, target: 't.example.com' },
    });
    const back = fromCloudflare({
      id: 'r1',
      type: 'SRV',
      name: 'x.example.com',
      content: '2 443 t.example.com',
      ttl: 3600,
      data: { priority: 1, weight: 2, port: 443, target: 't.example.com' },
    });
    expect(back).toMatchObject({
      ref: 'r1',
      priority: 1,
      weight: 2,
      port: 443,
      content: 't.example.com',
    });
  });
});

describe('record schemas', () => {
  it('checks each type with its own schema, in both the union and the wire body', () => {
    const good = { type: 'MX', name: '@', content: 'mail.example.com' };
    expect(dnsRecordInput.parse(good)).toMatchObject({ priority: 10, ttl: 3600 });
    expect(dnsRecordBody.safeParse(good).success).toBe(true);
    const bad = dnsRecordBody.safeParse({ type: 'AAAA', name: 'v6', content: '10.0.0.1' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['content']);
    expect(
      dnsRecordBody.safeParse({ type: 'CAA', name: '@', content: 'a"b', tag: 'issue' }).success,
    ).toBe(false);
  });
});
