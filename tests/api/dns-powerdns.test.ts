import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PinoLoggerOptions } from 'fastify/types/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../server/app';
import { type PdnsServer, startPdns } from '../dns/pdns';
import { type FakeGithub, startFakeGithub } from '../fakes/github';
import { type FakeHetzner, startFakeHetzner } from '../fakes/hetzner';
import { type FakeS3, startFakeS3 } from '../fakes/s3';
import { dnsRecordCalls } from './dnsRecordCalls';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Third-party keys and DNS against a real PowerDNS (pdns_server with its sqlite backend, on
 * loopback), checked with `dig`; GitHub and Hetzner Cloud tokens are checked against local fakes
 * of their APIs, S3 keys against a fake that verifies AWS signatures. The panel's real logger is captured: no credential reaches it.
 */
let t: TestApp;
let pdns: PdnsServer;
let github: FakeGithub;
let hetzner: FakeHetzner;
let s3: FakeS3;
let owner: TestUser;
let other: TestUser;
const lines: string[] = [];

beforeAll(async () => {
  [pdns, github, hetzner, s3] = await Promise.all([
    startPdns(),
    startFakeGithub(),
    startFakeHetzner(),
    startFakeS3(),
  ]);
  const options = loggerOptions('trace') as PinoLoggerOptions;
  // The test's pdns_server listens on loopback: the administrator allows that one address.
  t = await buildTestApp(
    { outboundAllow: ['127.0.0.1'], githubApiUrl: github.url, hetznerApiUrl: hetzner.url },
    { logger: { ...options, stream: { write: (line: string) => void lines.push(line) } } },
  );
  [owner, other] = await Promise.all([t.user(), t.user()]);
}, 30_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([pdns?.stop(), github?.close(), hetzner?.close(), s3?.close()]);
});

const keys = (uid: number) => `/api/v1/thirdpartykeys/users/${uid}`;

async function addPowerdns(label: string, user = owner) {
  const res = await t.call('POST', `/api/v1/powerdns/users/${user.id}`, {
    token: user.token,
    body: { label, api_url: pdns.apiUrl, secret: pdns.apiKey },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; label: string; hint: string };
}

describe('third-party keys', () => {
  it('stores a credential sealed, shows it masked, never whole', async () => {
    const secret = github.token;
    const res = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'github', label: 'My GitHub', secret },
    });
    expect(res.statusCode, res.body).toBe(201);
    const key = res.json() as Record<string, unknown>;
    expect(key).toMatchObject({ integration: 'github', kind: 'git', label: 'My GitHub' });
    expect(key.hint).toBe(`••••${secret.slice(-4)}`);
    expect(res.body).not.toContain(secret);
    expect(key.checked_at).not.toBeNull(); // GitHub answered GET /user for it

    const row = await t.app.db
      .selectFrom('third_party_keys')
      .selectAll()
      .where('id', '=', key.id as number)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(secret);
    expect(t.app.services.box.open(row.secret_sealed)).toBe(secret);

    const list = await t.call('GET', keys(owner.id), { token: owner.token });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain(row.secret_sealed);
    expect((list.json() as { total: number }).total).toBeGreaterThanOrEqual(1);
  });

  it('checks GitHub and Hetzner Cloud tokens with the provider before saving them', async () => {
    const wrongGithub = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'github', label: 'Git', secret: 'ghp_not_the_token_0000' },
    });
    expect(wrongGithub.statusCode).toBe(400);
    expect(wrongGithub.json().message).toBe(
      'GitHub refused the token: Bad credentials; nothing was saved',
    );
    const wrongHetzner = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'hetzner', label: 'Cloud', secret: 'not-the-hetzner-token' },
    });
    expect(wrongHetzner.statusCode).toBe(400);
    expect(wrongHetzner.json().message).toBe(
      'Hetzner Cloud refused the token: unable to authenticate; nothing was saved',
    );
    expect(await t.app.services.thirdPartyKeys.findByLabel(owner.id, 'Cloud')).toBeUndefined();
    const right = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'hetzner', label: 'Cloud', secret: hetzner.token },
    });
    expect(right.statusCode, right.body).toBe(201);
    expect(right.json().checked_at).not.toBeNull();
    expect(hetzner.calls).toEqual(['GET /v1/locations', 'GET /v1/locations']);
  });

  it('checks an S3 key pair with a signed ListBuckets; a key limited to its bucket passes', async () => {
    s3.keys.set('AKIACHECKED', 'the-right-secret-1');
    s3.keys.set('AKIAONEBUCKET', 'the-right-secret-2');
    s3.cannotList.add('AKIAONEBUCKET');
    const save = (label: string, key_id: string, secret: string) =>
      t.call('POST', keys(owner.id), {
        token: owner.token,
        body: { integration: 's3', label, api_url: s3.url, key_id, secret },
      });
    const unknown = await save('S3 x', 'AKIAUNKNOWN', 'the-right-secret-1');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'S3 refused the access key (InvalidAccessKeyId); nothing was saved',
    );
    const wrongSecret = await save('S3 x', 'AKIACHECKED', 'not-the-secret-1');
    expect(wrongSecret.json().message).toBe(
      'S3 refused the access key (SignatureDoesNotMatch); nothing was saved',
    );
    const right = await save('S3 all', 'AKIACHECKED', 'the-right-secret-1');
    expect(right.statusCode, right.body).toBe(201);
    expect(right.json().checked_at).not.toBeNull();
    const oneBucket = await save('S3 one', 'AKIAONEBUCKET', 'the-right-secret-2');
    expect(oneBucket.statusCode, oneBucket.body).toBe(201);
    // The endpoint is the user's: the fake's loopback address is allowed in this app, a cloud
    // metadata address is not.
    const metadata = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: {
        integration: 's3',
        label: 'S3 meta',
        api_url: 'http://169.254.169.254',
        key_id: 'AKIACHECKED',
        secret: 'the-right-secret-1',
      },
    });
    expect(metadata.statusCode).toBe(400);
    expect(metadata.json().message).toMatch(
      /^S3: 169\.254\.169\.254 is a private or local address/,
    );
  });

  it('replaces and deletes a credential; another user reaches it as missing', async () => {
    s3.keys.set('AKIAEXAMPLE', 'first-secret-1111');
    const made = (
      await t.call('POST', keys(owner.id), {
        token: owner.token,
        body: {
          integration: 's3',
          label: 'Store A',
          api_url: s3.url,
          key_id: 'AKIAEXAMPLE',
          secret: 'first-secret-1111',
        },
      })
    ).json() as { id: number };
    const url = `/api/v1/thirdpartykeys/${made.id}/users/${owner.id}`;
    s3.keys.set('AKIAEXAMPLE', 'second-secret-2222');
    const replaced = await t.call('PUT', url, {
      token: owner.token,
      body: { secret: 'second-secret-2222', label: 'Store B' },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ label: 'Store B', hint: '••••2222' });

    // Another user, through their own uid: the id is not theirs, exactly like a missing one.
    const foreign = await t.call('PUT', `/api/v1/thirdpartykeys/${made.id}/users/${other.id}`, {
      token: other.token,
      body: { secret: 'stolen-secret-3333' },
    });
    const missing = await t.call('PUT', `/api/v1/thirdpartykeys/999999/users/${other.id}`, {
      token: other.token,
      body: { secret: 'stolen-secret-3333' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect(
      (
        await t.call('DELETE', `/api/v1/thirdpartykeys/${made.id}/users/${other.id}`, {
          token: other.token,
        })
      ).statusCode,
    ).toBe(404);

    const gone = await t.call('DELETE', url, { token: owner.token });
    expect(gone.statusCode).toBe(200);
    expect((await t.call('DELETE', url, { token: owner.token })).statusCode).toBe(404);
  });

  it('refuses a taken label, a missing address and bad input', async () => {
    await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'github', label: 'Taken', secret: github.token },
    });
    const taken = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'hetzner', label: 'Taken', secret: 'some-secret-456' },
    });
    expect(taken.statusCode).toBe(409);
    const noUrl = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 's3', label: 'Store', key_id: 'AKIA1', secret: 'some-secret-789' },
    });
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json().message).toMatch(/API address/);
    const bad = await t.call('POST', keys(owner.id), {
      token: owner.token,
      body: { integration: 'nope', label: '', secret: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors as object).sort()).toEqual([
      'integration',
      'label',
      'secret',
    ]);
  });

  it('refuses a PowerDNS address on a private or local network the administrator did not allow', async () => {
    for (const [apiUrl, shown] of [
      ['http://169.254.169.254', '169.254.169.254'],
      ['http://[::1]:8081', '::1'],
      ['http://[::ffff:10.0.0.1]:8081', '::ffff:a00:1'],
    ]) {
      const res = await t.call('POST', `/api/v1/powerdns/users/${owner.id}`, {
        token: owner.token,
        body: { label: 'Inside', api_url: apiUrl, secret: pdns.apiKey },
      });
      expect(res.statusCode, apiUrl).toBe(400);
      expect(res.json().message).toBe(
        `PowerDNS: ${shown} is a private or local address; the panel administrator can allow it with OUTBOUND_ALLOW; nothing was saved`,
      );
    }
    expect(await t.app.services.thirdPartyKeys.findByLabel(owner.id, 'Inside')).toBeUndefined();
  });

  it('checks a PowerDNS key with the server before saving it', async () => {
    const wrong = await t.call('POST', `/api/v1/powerdns/users/${owner.id}`, {
      token: owner.token,
      body: { label: 'Wrong key', api_url: pdns.apiUrl, secret: 'not-the-pdns-key' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('PowerDNS refused the API key; nothing was saved');
    const nowhere = await t.call('POST', `/api/v1/powerdns/users/${owner.id}`, {
      token: owner.token,
      body: { label: 'Nowhere', api_url: 'http://127.0.0.1:9', secret: pdns.apiKey },
    });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().message).toMatch(/Could not reach PowerDNS at http:\/\/127\.0\.0\.1:9/);
    // Something else at the address: its page is not read back to the user.
    const other = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>internal admin page: db password hunter2</html>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const elsewhere = await t.call('POST', `/api/v1/powerdns/users/${owner.id}`, {
        token: owner.token,
        body: { label: 'Elsewhere', api_url: otherUrl, secret: pdns.apiKey },
      });
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json().message).toBe(
        `${otherUrl} does not answer like a PowerDNS API (HTTP 200); nothing was saved`,
      );
      expect(elsewhere.body).not.toContain('hunter2');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    const saved = await t.app.services.thirdPartyKeys.findByLabel(owner.id, 'Wrong key');
    expect(saved).toBeUndefined();

    const account = await addPowerdns('Main DNS');
    expect(account.hint).toBe(`••••${pdns.apiKey.slice(-4)}`);
    const accounts = await t.call('GET', `/api/v1/listapidetails/users/${owner.id}`, {
      token: owner.token,
    });
    const labels = (accounts.json() as { data: { label: string; kind: string }[] }).data;
    expect(labels.map((a) => a.label)).toEqual(['Main DNS']); // DNS accounts only
  });
});

describe('PowerDNS zones and records', () => {
  const q = '?label=Main%20DNS';
  let zoneId: number;

  it('creates a zone that PowerDNS serves', async () => {
    const res = await t.call('POST', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
      body: { name: 'Example.Test' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const zone = res.json() as { id: number; name: string; provider: string };
    expect(zone).toMatchObject({ name: 'example.test', provider: 'powerdns' });
    zoneId = zone.id;
    expect((await pdns.dig('example.test', 'NS')).sort()).toEqual([
      'ns1.example.test.',
      'ns2.example.test.',
    ]);

    const again = await t.call('POST', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
      body: { name: 'example.test' },
    });
    expect(again.statusCode).toBe(409);

    const list = await t.call('GET', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
    });
    expect(list.json()).toMatchObject({ total: 1, data: [{ id: zoneId, name: 'example.test' }] });
  });

  it('adds, changes and deletes records of every type; dig answers them', async () => {
    const { create, change: edit } = dnsRecordCalls(t, owner, zoneId, q);
    const a = await create({ type: 'A', name: 'www', ttl: 300, content: '203.0.113.7' });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ type: 'A', name: 'www', fqdn: 'www.example.test', ttl: 300 });
    expect(await pdns.dig('www.example.test')).toEqual(['203.0.113.7']);

    const more = [
      { type: 'A', name: 'www', content: '203.0.113.8' },
      { type: 'AAAA', name: '@', content: '2001:DB8:0:0::1' },
      { type: 'CNAME', name: 'blog', content: 'www.example.test' },
      { type: 'MX', name: '@', priority: 20, content: 'mail.example.test' },
      { type: 'TXT', name: '@', content: 'v=spf1 mx -all "quoted"' },
      { type: 'NS', name: 'sub', content: 'ns.elsewhere.test' },
      {
        type: 'SRV',
        name: '_sip._tcp',
        priority: 10,
        weight: 5,
        port: 5060,
        content: 'sip.example.test',
      },
      { type: 'CAA', name: '@', flags: 0, tag: 'issue', content: 'letsencrypt.org' },
    ];
    for (const body of more) {
      const res = await create(body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(201);
    }
    expect((await pdns.dig('www.example.test')).sort()).toEqual(['203.0.113.7', '203.0.113.8']);
    expect(await pdns.dig('example.test', 'AAAA')).toEqual(['2001:db8::1']);
    expect(await pdns.dig('blog.example.test', 'CNAME')).toEqual(['www.example.test.']);
    expect(await pdns.dig('example.test', 'MX')).toEqual(['20 mail.example.test.']);
    expect(await pdns.dig('example.test', 'TXT')).toEqual(['"v=spf1 mx -all \\"quoted\\""']);
    expect(await pdns.dig('_sip._tcp.example.test', 'SRV')).toEqual([
      '10 5 5060 sip.example.test.',
    ]);
    expect(await pdns.dig('example.test', 'CAA')).toEqual(['0 issue "letsencrypt.org"']);

    const dup = await create({ type: 'A', name: 'www', content: '203.0.113.8' });
    expect(dup.statusCode).toBe(409);

    const list = await t.call(
      'GET',
      `/api/v1/powerdns/listdns_records/users/${owner.id}${q}&domain=example.test&perPage=100`,
      { token: owner.token },
    );
    expect(list.statusCode, list.body).toBe(200);
    const records = (
      list.json() as { data: { id: number; type: string; name: string; content: string }[] }
    ).data;
    const txt = records.find((r) => r.type === 'TXT');
    expect(txt?.content).toBe('v=spf1 mx -all "quoted"');
    const srv = records.find((r) => r.type === 'SRV');
    expect(srv).toMatchObject({
      name: '_sip._tcp',
      priority: 10,
      weight: 5,
      port: 5060,
      content: 'sip.example.test',
    });
    const www8 = records.find((r) => r.type === 'A' && r.content === '203.0.113.8')!;
    // Paging: one record a page.
    const page2 = await t.call(
      'GET',
      `/api/v1/powerdns/listdns_records/users/${owner.id}${q}&domain=example.test&perPage=1&page=2`,
      { token: owner.token },
    );
    expect(page2.json()).toMatchObject({ total: records.length, data: [records[1]] });

    // Change one of the two www addresses, then move it to another name.
    const changed = await edit(www8.id, {
      type: 'A',
      name: 'www',
      ttl: 600,
      content: '198.51.100.9',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: www8.id, content: '198.51.100.9', ttl: 600 });
    expect((await pdns.dig('www.example.test')).sort()).toEqual(['198.51.100.9', '203.0.113.7']);
    const moved = await edit(www8.id, { type: 'A', name: 'api', content: '198.51.100.9' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await pdns.dig('api.example.test')).toEqual(['198.51.100.9']);
    expect(await pdns.dig('www.example.test')).toEqual(['203.0.113.7']);

    const del = await t.call(
      'DELETE',
      `/api/v1/listapidetails/deletezone/${zoneId}/delete_dns/${www8.id}/users/${owner.id}${q}`,
      { token: owner.token },
    );
    expect(del.statusCode, del.body).toBe(200);
    expect(await pdns.dig('api.example.test')).toEqual([]);
    const delAgain = await t.call(
      'DELETE',
      `/api/v1/listapidetails/deletezone/${zoneId}/delete_dns/${www8.id}/users/${owner.id}${q}`,
      { token: owner.token },
    );
    expect(delAgain.statusCode).toBe(404);
  });

  it('validates each record type with its own schema, on create and on change', async () => {
    const calls = dnsRecordCalls(t, owner, zoneId, q);
    const { create } = calls;
    const kept = await create({ type: 'A', name: 'kept', content: '203.0.113.60' });
    expect(kept.statusCode, kept.body).toBe(201);
    const change = (body: unknown) => calls.change(kept.json().id, body);
    const cases: [unknown, string][] = [
      [{ type: 'A', name: 'x', content: '300.1.1.1' }, 'content'],
      [{ type: 'AAAA', name: 'x', content: '203.0.113.1' }, 'content'],
      [{ type: 'CNAME', name: 'x', content: 'not a host' }, 'content'],
      [{ type: 'MX', name: '@', priority: 70000, content: 'mail.example.test' }, 'priority'],
      [{ type: 'TXT', name: '@', content: 'line\nbreak' }, 'content'],
      [{ type: 'SRV', name: '_x._tcp', content: 'host.example.test' }, 'port'],
      [{ type: 'CAA', name: '@', tag: 'bogus', content: 'ca.example' }, 'tag'],
      [{ type: 'A', name: 'bad name!', content: '203.0.113.1' }, 'name'],
      [{ type: 'A', name: 'x', ttl: 5, content: '203.0.113.1' }, 'ttl'],
      [{ type: 'PTR', name: 'x', content: 'host.example.test' }, 'type'],
      // What PowerDNS itself cannot take: said of the field, never PowerDNS's parse error.
      [{ type: 'A', name: 'a..b', content: '203.0.113.1' }, 'name'],
      [{ type: 'A', name: 'x'.repeat(64), content: '203.0.113.1' }, 'name'],
      [{ type: 'A', name: `${'abcdefghi.'.repeat(24)}abcd`, content: '203.0.113.1' }, 'name'],
      [{ type: 'CAA', name: '@', tag: 'iodef', content: 'ca.example' }, 'content'],
      [{ type: 'A', name: 'www.other.test.', content: '203.0.113.1' }, 'name'],
    ];
    for (const [body, field] of cases) {
      for (const write of [create, change]) {
        const res = await write(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.json().errors as object), JSON.stringify(body)).toContain(field);
      }
    }
    // Nothing was written: the kept record is as it was.
    expect(await pdns.dig('kept.example.test')).toEqual(['203.0.113.60']);
  });

  it('answers foreign and mismatched ids like missing ones', async () => {
    const otherQ = '?label=Main%20DNS';
    await addPowerdns('Main DNS', other); // same label, other user's own account
    const foreign = await t.call(
      'POST',
      `/api/v1/listapidetails/createdns/zones/${zoneId}/users/${other.id}${otherQ}`,
      { token: other.token, body: { type: 'A', name: 'evil', content: '203.0.113.66' } },
    );
    const missing = await t.call(
      'POST',
      `/api/v1/listapidetails/createdns/zones/999999/users/${other.id}${otherQ}`,
      { token: other.token, body: { type: 'A', name: 'evil', content: '203.0.113.66' } },
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect(await pdns.dig('evil.example.test')).toEqual([]);
    // The owner's own uid in another user's call: 404 before anything is looked up.
    const viaOwner = await t.call('GET', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: other.token,
    });
    expect(viaOwner.statusCode).toBe(404);
    // The provider segment must match the account.
    const wrongProvider = await t.call(
      'GET',
      `/api/v1/cloudflare/listdns_records/users/${owner.id}${q}&domain=example.test`,
      { token: owner.token },
    );
    expect(wrongProvider.statusCode).toBe(404);
    const unknownProvider = await t.call(
      'GET',
      `/api/v1/route53/listdns_records/users/${owner.id}${q}&domain=example.test`,
      { token: owner.token },
    );
    expect(unknownProvider.statusCode).toBe(404);
  });

  it('tells a user whose stored key PowerDNS no longer accepts what to do', async () => {
    const account = await t.app.services.thirdPartyKeys.findByLabel(owner.id, 'Main DNS');
    await t.app.services.thirdPartyKeys.replace(account!.id, {
      label: 'Main DNS',
      api_url: account!.api_url,
      key_id: null,
      secret: 'revoked-key-0000',
      checked: false,
    });
    const res = await t.call('GET', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/PowerDNS refused the API key.*Replace the credential/);
    // Put the right key back through the API: checked again.
    const put = await t.call('PUT', `/api/v1/thirdpartykeys/${account!.id}/users/${owner.id}`, {
      token: owner.token,
      body: { secret: pdns.apiKey },
    });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('deletes the zone at PowerDNS', async () => {
    const res = await t.call(
      'DELETE',
      `/api/v1/listapidetails/deletezone/${zoneId}/users/${owner.id}${q}`,
      { token: owner.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await pdns.dig('www.example.test')).toEqual([]);
    const list = await t.call('GET', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
    });
    expect(list.json()).toMatchObject({ total: 0, data: [] });
  });

  it('never logs a credential', () => {
    const text = lines.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(pdns.apiKey);
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).not.toContain('second-secret-2222');
  });
});
