import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneHolding, zoneRecordsOf, zoneWriter } from '../../features/dns/serverApi';
import { checkMailDns } from '../../features/mail/dnsCheck';
import { applyMailDnsPlan, planMailDnsPublish } from '../../features/mail/dnsPublish';
import { mailDnsValues } from '../../features/mail/dnsValues';
import { type PdnsServer, startPdns } from '../dns/pdns';
import { dnsRecordCalls } from './dnsRecordCalls';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Publishing a mail domain's records into Stackdeck DNS, end to end: a real PowerDNS on loopback,
 * a zone and the user's own records made through the panel's DNS routes, the plan written through
 * DNS's serverApi, then node's Resolver asked at PowerDNS: every mail record ok, theirs intact.
 */
let t: TestApp;
let pdns: PdnsServer;
let owner: TestUser;
let other: TestUser;
const q = '?label=Mine';

const P = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const values = mailDnsValues({
  domain: 'shop.example.test',
  dkimPublicKey: P,
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::25',
  mailHost: 'srv1.example.net',
});

beforeAll(async () => {
  pdns = await startPdns();
  t = await buildTestApp({ outboundAllow: ['127.0.0.1'] });
  [owner, other] = await Promise.all([t.user(), t.user()]);
  const account = await t.call('POST', `/api/v1/powerdns/users/${owner.id}`, {
    token: owner.token,
    body: { label: 'Mine', api_url: pdns.apiUrl, secret: pdns.apiKey },
  });
  expect(account.statusCode, account.body).toBe(201);
}, 30_000);
afterAll(async () => {
  await t?.close();
  await pdns?.stop();
});

describe('mail records published into a zone of Stackdeck DNS', () => {
  it('finds the zone above the domain, merges SPF, keeps the rest, and DNS then answers ours', async () => {
    const zone = await t.call('POST', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
      body: { name: 'example.test' },
    });
    expect(zone.statusCode, zone.body).toBe(201);
    const calls = dnsRecordCalls(t, owner, (zone.json() as { id: number }).id, q);
    for (const body of [
      { type: 'TXT', name: 'shop', content: 'v=spf1 include:_spf.google.com ~all' },
      { type: 'TXT', name: 'shop', content: 'google-site-verification=abc' },
      { type: 'A', name: 'shop', content: '198.51.100.7' },
      { type: 'A', name: 'mail.shop', content: '198.51.100.7' },
    ]) {
      const res = await calls.create(body);
      expect(res.statusCode, res.body).toBe(201);
    }

    expect(await zoneHolding(t.app.db, other.id, values.domain)).toBeUndefined();
    const row = await zoneHolding(t.app.db, owner.id, values.domain);
    expect(row?.name).toBe('example.test');
    const before = await zoneRecordsOf(t.app.services, owner.id, row!);
    const plan = planMailDnsPublish(values, row!.name, before);
    expect(plan.notes).toContain(
      'mail.shop.example.test pointed at 198.51.100.7; it now points at 192.0.2.10.',
    );
    await applyMailDnsPlan(plan, zoneWriter(t.app.services, t.app.db, owner.id, row!));

    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([`127.0.0.1:${pdns.dnsPort}`]);
    const check = await checkMailDns(values, resolver);
    expect(check.records.map((r) => [r.kind, r.status])).toEqual([
      ['dkim', 'ok'],
      ['spf', 'ok'],
      ['dmarc', 'ok'],
      ['mx', 'ok'],
      ['mail-a', 'ok'],
      ['mail-aaaa', 'ok'],
      ['ptr', 'unchecked'], // PowerDNS serves no reverse zone here: it refuses the question
    ]);
    expect((await pdns.dig('shop.example.test', 'TXT')).sort()).toEqual([
      '"google-site-verification=abc"',
      '"v=spf1 include:_spf.google.com mx ip4:192.0.2.10 ip6:2001:db8::25 ~all"',
    ]);
    expect(await pdns.dig('shop.example.test', 'A')).toEqual(['198.51.100.7']);
    // The 2048-bit key went out as two strings of at most 255.
    const [dkim] = await pdns.dig('mail._domainkey.shop.example.test', 'TXT');
    expect(dkim).toMatch(/^"v=DKIM1; h=sha256; k=rsa; p=[^"]+" "[^"]+"$/);

    // What the writer refuses is said at its field, like the record routes say it.
    const writer = zoneWriter(t.app.services, t.app.db, owner.id, row!);
    await expect(
      writer.create({ type: 'A', name: 'x', ttl: 3600, content: '999.1.1.1' }),
    ).rejects.toMatchObject({
      statusCode: 400,
      errors: { content: expect.stringMatching(/IPv4/) },
    });
    await expect(writer.remove(999_999)).rejects.toMatchObject({ statusCode: 404 });

    // Published again: nothing left to write.
    const after = await zoneRecordsOf(t.app.services, owner.id, row!);
    expect(planMailDnsPublish(values, row!.name, after).upToDate).toBe(true);
  });
});
