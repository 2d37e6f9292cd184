import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PdnsServer, startPdns } from '../dns/pdns';
import { dnsRecordCalls } from './dnsRecordCalls';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { appOn } from './matrix/support';

/**
 * The mail-authentication calls (spec s.7 "Mail", issue 25) on an app with one mail domain: the
 * values per call (split for copying), a bad `?domain=` at its field, another tenant refused,
 * publishing refused while the zone is elsewhere, then into a real PowerDNS zone on loopback,
 * which the check (asking that PowerDNS, MAIL_DNS_RESOLVERS) then finds ours.
 */
let t: TestApp;
let pdns: PdnsServer;
let owner: TestUser;
let other: TestUser;
let base: string;
const DOMAIN = 'shop.example.test';
const KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');

type Rec = { kind: string; type: string; content: string; content_split: string[] };
type Values = {
  data: { domain: string; records: Rec[]; notes: string[]; in_stackdeck_dns: boolean }[];
};

const get = (call: string, query = '', token = owner.token) =>
  t.call('GET', `/api/v1/${call}/${base}${query}`, { token });

beforeAll(async () => {
  pdns = await startPdns();
  t = await buildTestApp({
    outboundAllow: ['127.0.0.1'],
    mailDnsResolvers: [`127.0.0.1:${pdns.dnsPort}`],
  });
  [owner, other] = await Promise.all([t.user(), t.user()]);
  const server = await t.app.services.servers.create(owner.id, { name: 'mail1' });
  await t.app.db
    .updateTable('servers')
    .set({ ip4: '192.0.2.10' })
    .where('id', '=', server.id)
    .execute();
  const appId = await appOn(t, server.id);
  await t.app.db
    .insertInto('mail_domains')
    .values({
      server_id: server.id,
      webapp_id: appId,
      domain: DOMAIN,
      dkim_public_key: KEY,
      selector: 'mail',
      created_at: new Date().toISOString(),
    })
    .execute();
  base = `webstack/${appId}/servers/${server.id}/users/${owner.id}`;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await pdns?.stop();
});

describe('mail-authentication values', () => {
  it('answers DKIM split in strings of 255, both DMARC choices, MX and mail A, ours SPF', async () => {
    const dkim = await get('dkim-display');
    expect(dkim.statusCode, dkim.body).toBe(200);
    const [d] = (dkim.json() as Values).data;
    expect(d).toMatchObject({ domain: DOMAIN, in_stackdeck_dns: false });
    expect(d!.records[0]!.content).toBe(`v=DKIM1; h=sha256; k=rsa; p=${KEY}`);
    expect(d!.records[0]!.content_split).toHaveLength(2);
    expect(d!.records[0]!.content_split.join('')).toBe(d!.records[0]!.content);

    const dmarc = (await get('dmarc')).json() as Values;
    expect(dmarc.data[0]!.records.map((r) => r.content)).toEqual([
      'v=DMARC1; p=quarantine; adkim=r; aspf=r',
      `v=DMARC1; p=none; rua=mailto:dmarc@${DOMAIN}`,
    ]);
    const mx = (await get('mx', `?domain=${DOMAIN}`)).json() as Values;
    expect(mx.data[0]!.records.map((r) => [r.type, r.content])).toEqual([
      ['MX', `mail.${DOMAIN}.`],
      ['A', '192.0.2.10'],
    ]);
    const spf = (await get('generate-spf')).json() as Values;
    expect(spf.data[0]!.records[0]!.content).toBe('v=spf1 mx a ip4:192.0.2.10 -all');
  });

  it('refuses a domain that is not one of the app mail domains at its field, and strangers', async () => {
    const bad = await get('dkim-display', '?domain=elsewhere.example');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: { domain: expect.stringContaining(DOMAIN) } });
    const notName = await get('mx', '?domain=not a name');
    expect(notName.statusCode).toBe(400);
    const stranger = await t.call(
      'GET',
      `/api/v1/dkim-display/${base.replace(`users/${owner.id}`, `users/${other.id}`)}`,
      { token: other.token },
    );
    expect(stranger.statusCode).toBe(404);
  });
});

describe('publishing and checking', () => {
  it('refuses while the zone is not in Stackdeck DNS, then publishes into it and DNS answers ours', async () => {
    const publish = () =>
      t.call('POST', `/api/v1/mail-dns-publish/${base}`, {
        token: owner.token,
        body: { domain: DOMAIN, dmarc_policy: 'none' },
      });
    const refused = await publish();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: `The zone of ${DOMAIN} is not in Stackdeck's DNS: publish these records where it is`,
    });

    const account = await t.call('POST', `/api/v1/powerdns/users/${owner.id}`, {
      token: owner.token,
      body: { label: 'Mine', api_url: pdns.apiUrl, secret: pdns.apiKey },
    });
    expect(account.statusCode, account.body).toBe(201);
    const zone = await t.call('POST', `/api/v1/listapidetails/zones/users/${owner.id}?label=Mine`, {
      token: owner.token,
      body: { name: 'example.test' },
    });
    expect(zone.statusCode, zone.body).toBe(201);
    const calls = dnsRecordCalls(t, owner, (zone.json() as { id: number }).id, '?label=Mine');
    const theirs = await calls.create({
      type: 'TXT',
      name: 'shop',
      content: 'v=spf1 include:_spf.google.com ~all',
    });
    expect(theirs.statusCode, theirs.body).toBe(201);

    // SPF merged into what DNS answers now; the zone is now seen as Stackdeck's.
    const spf = (await get('generate-spf')).json() as Values;
    expect(spf.data[0]).toMatchObject({ in_stackdeck_dns: true });
    expect(spf.data[0]!.records[0]!.content).toBe(
      'v=spf1 include:_spf.google.com mx ip4:192.0.2.10 ~all',
    );
    expect(spf.data[0]!.notes[0]).toMatch(/^Merged into the SPF record/);

    const before = await get('mail-dns-check');
    expect(before.statusCode, before.body).toBe(200);
    const kinds = (res: typeof before) =>
      (
        res.json() as { data: { records: { kind: string; status: string }[] }[] }
      ).data[0]!.records.filter((r) => r.kind !== 'ptr').map((r) => [r.kind, r.status]);
    expect(kinds(before)).toEqual([
      ['dkim', 'missing'],
      ['spf', 'different'],
      ['dmarc', 'missing'],
      ['mx', 'missing'],
      ['mail-a', 'missing'],
    ]);

    const done = await publish();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ zone: 'example.test', up_to_date: false });
    expect(
      (done.json() as { created: { type: string }[] }).created.map((c) => c.type).sort(),
    ).toEqual(['A', 'MX', 'TXT', 'TXT']);
    const after = await get('mail-dns-check');
    expect(kinds(after)).toEqual([
      ['dkim', 'ok'],
      ['spf', 'ok'],
      ['dmarc', 'ok'],
      ['mx', 'ok'],
      ['mail-a', 'ok'],
    ]);
    const again = await publish();
    expect(again.json()).toMatchObject({ up_to_date: true, created: [], updated: [] });

    const bad = await t.call('POST', `/api/v1/mail-dns-publish/${base}`, {
      token: owner.token,
      body: { domain: 'elsewhere.example' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: { domain: expect.any(String) } });
  });
});
