import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCloudflare, startFakeCloudflare } from '../fakes/cloudflare';
import { dnsRecordCalls } from './dnsRecordCalls';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** DNS through the Cloudflare API v4 client, against the local fake of the endpoints it uses. */
let t: TestApp;
let cf: FakeCloudflare;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  cf = await startFakeCloudflare();
  t = await buildTestApp({ cloudflareApiUrl: cf.url });
  [owner, other] = await Promise.all([t.user(), t.user()]);
});
afterAll(async () => {
  await t?.close();
  await cf?.close();
});

const q = '?label=CF';

describe('Cloudflare', () => {
  it('checks the token with tokens/verify before saving the account', async () => {
    const wrong = await t.call('POST', `/api/v1/cloudflare/users/${owner.id}`, {
      token: owner.token,
      body: { label: 'CF', secret: 'not-the-token-123' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(
      'Cloudflare refused the API token: Invalid API Token (1000); nothing was saved',
    );
    const res = await t.call('POST', `/api/v1/cloudflare/users/${owner.id}`, {
      token: owner.token,
      body: { label: 'CF', secret: cf.token },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      integration: 'cloudflare',
      hint: `••••${cf.token.slice(-4)}`,
    });
    expect(res.body).not.toContain(cf.token);
    expect(cf.calls.filter((c) => c === 'GET /user/tokens/verify')).toHaveLength(2);
  });

  it('creates, lists (every page) and deletes zones', async () => {
    const made: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await t.call('POST', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
        token: owner.token,
        body: { name: `zone${i}.example` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name: `zone${i}.example`, provider: 'cloudflare' });
      made.push((res.json() as { id: number }).id);
    }
    // 150 more made directly at "Cloudflare": the client reads all pages of 100.
    for (let i = 0; i < 150; i += 1) {
      const id = `${i}`.padStart(32, 'a');
      cf.zones.set(id, {
        id,
        name: `bulk${i}.example`,
        status: 'active',
        account: { id: cf.accountId },
        records: new Map(),
      });
    }
    const list = await t.call(
      'GET',
      `/api/v1/listapidetails/zones/users/${owner.id}${q}&perPage=10`,
      {
        token: owner.token,
      },
    );
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { total: number }).total).toBe(153);
    expect(cf.calls.filter((c) => c === 'GET /zones').length).toBeGreaterThanOrEqual(2);

    const dup = await t.call('POST', `/api/v1/listapidetails/zones/users/${owner.id}${q}`, {
      token: owner.token,
      body: { name: 'zone0.example' },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toBe('Cloudflare: zone0.example already exists (1061)');

    const del = await t.call(
      'DELETE',
      `/api/v1/listapidetails/deletezone/${made[2]}/users/${owner.id}${q}`,
      {
        token: owner.token,
      },
    );
    expect(del.statusCode, del.body).toBe(200);
    expect([...cf.zones.values()].some((z) => z.name === 'zone2.example')).toBe(false);
  });

  it('adds, lists, changes and deletes records of every type', async () => {
    const zones = (
      await t.call('GET', `/api/v1/listapidetails/zones/users/${owner.id}${q}&perPage=500`, {
        token: owner.token,
      })
    ).json() as { data: { id: number; name: string }[] };
    const zone = zones.data.find((z) => z.name === 'zone0.example')!;
    const { create, change: edit } = dnsRecordCalls(t, owner, zone.id, q);
    const bodies = [
      { type: 'A', name: 'www', ttl: 300, content: '203.0.113.7' },
      { type: 'AAAA', name: '@', content: '2001:db8:0::1' },
      { type: 'CNAME', name: 'blog', content: 'www.zone0.example' },
      { type: 'MX', name: '@', priority: 20, content: 'mail.zone0.example' },
      { type: 'TXT', name: '@', content: 'v=spf1 -all' },
      { type: 'NS', name: 'sub', content: 'ns.elsewhere.test' },
      {
        type: 'SRV',
        name: '_sip._tcp',
        priority: 10,
        weight: 5,
        port: 5060,
        content: 'sip.zone0.example',
      },
      { type: 'CAA', name: '@', tag: 'issue', content: 'letsencrypt.org' },
    ];
    for (const body of bodies) {
      const res = await create(body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(201);
    }
    const stored = [
      ...cf.zones
        .get([...cf.zones.values()].find((z) => z.name === 'zone0.example')!.id)!
        .records.values(),
    ];
    expect(stored.find((r) => r.type === 'SRV')?.data).toEqual({
      priority: 10,
      weight: 5,
      port: 5060,
      target: 'sip.zone0.example',
    });
    expect(stored.find((r) => r.type === 'CAA')?.data).toEqual({
      flags: 0,
      tag: 'issue',
      value: 'letsencrypt.org',
    });
    expect(stored.find((r) => r.type === 'MX')).toMatchObject({
      priority: 20,
      content: 'mail.zone0.example',
    });

    const list = await t.call(
      'GET',
      `/api/v1/cloudflare/listdns_records/users/${owner.id}${q}&domain=zone0.example&perPage=100`,
      { token: owner.token },
    );
    expect(list.statusCode, list.body).toBe(200);
    const records = list.json() as {
      total: number;
      data: {
        id: number;
        type: string;
        name: string;
        content: string;
        priority: number | null;
        port: number | null;
      }[];
    };
    expect(records.total).toBe(8);
    expect(records.data.find((r) => r.type === 'AAAA')).toMatchObject({
      name: '@',
      content: '2001:db8::1',
    });
    expect(records.data.find((r) => r.type === 'SRV')).toMatchObject({
      name: '_sip._tcp',
      port: 5060,
      priority: 10,
      content: 'sip.zone0.example',
    });
    const a = records.data.find((r) => r.type === 'A')!;

    const changed = await edit(a.id, { type: 'A', name: 'web', content: '198.51.100.1' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      id: a.id,
      name: 'web',
      fqdn: 'web.zone0.example',
      content: '198.51.100.1',
    });
    expect(stored.length).toBe(8);

    const conflict = await create({ type: 'CNAME', name: 'web', content: 'elsewhere.test' });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json().message).toMatch(/with that host already exists\. \(81053\)/);

    // Another user cannot reach the record, even naming their own account.
    await t.call('POST', `/api/v1/cloudflare/users/${other.id}`, {
      token: other.token,
      body: { label: 'CF', secret: cf.token },
    });
    const foreign = await t.call(
      'DELETE',
      `/api/v1/listapidetails/deletezone/${zone.id}/delete_dns/${a.id}/users/${other.id}${q}`,
      { token: other.token },
    );
    expect(foreign.statusCode).toBe(404);

    const del = await t.call(
      'DELETE',
      `/api/v1/listapidetails/deletezone/${zone.id}/delete_dns/${a.id}/users/${owner.id}${q}`,
      { token: owner.token },
    );
    expect(del.statusCode, del.body).toBe(200);
    const after = await t.call(
      'GET',
      `/api/v1/cloudflare/listdns_records/users/${owner.id}${q}&domain=zone0.example`,
      { token: owner.token },
    );
    expect((after.json() as { total: number }).total).toBe(7);
    // A record removed at Cloudflare behind the panel's back: its id answers 404.
    const gone = await edit(a.id, { type: 'A', name: 'web', content: '198.51.100.2' });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses what Cloudflare cannot take as field errors, on create and on change, asking it nothing', async () => {
    const zones = (
      await t.call('GET', `/api/v1/listapidetails/zones/users/${owner.id}${q}&perPage=500`, {
        token: owner.token,
      })
    ).json() as { data: { id: number; name: string }[] };
    const zone = zones.data.find((z) => z.name === 'zone0.example')!;
    const calls = dnsRecordCalls(t, owner, zone.id, q);
    const { create } = calls;
    const kept = await create({ type: 'A', name: 'kept', content: '203.0.113.60' });
    expect(kept.statusCode, kept.body).toBe(201);
    const change = (body: unknown) => calls.change(kept.json().id, body);
    const before = cf.calls.length;
    const cases: [unknown, string][] = [
      [{ type: 'MX', name: '@', content: 'mail.zone0.example', priority: -1 }, 'priority'],
      [{ type: 'A', name: 'a..b', content: '203.0.113.1' }, 'name'],
      [{ type: 'A', name: 'x'.repeat(64), content: '203.0.113.1' }, 'name'],
      [{ type: 'A', name: `${'abcdefghi.'.repeat(24)}abcd`, content: '203.0.113.1' }, 'name'],
      [{ type: 'CAA', name: '@', tag: 'iodef', content: 'ca.example' }, 'content'],
      [{ type: 'AAAA', name: 'v6', content: '203.0.113.1' }, 'content'],
      [{ type: 'LOC', name: 'x', content: '51 30 12.748 N' }, 'type'],
    ];
    for (const [body, field] of cases) {
      for (const write of [create, change]) {
        const res = await write(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.json().errors as object), JSON.stringify(body)).toContain(field);
      }
    }
    expect(cf.calls.slice(before).filter((c) => !c.startsWith('GET '))).toEqual([]);
  });

  it('says so when Cloudflare cannot be reached', async () => {
    const down = await buildTestApp({ cloudflareApiUrl: 'http://127.0.0.1:9' });
    try {
      const user = await down.user();
      const res = await down.call('POST', `/api/v1/cloudflare/users/${user.id}`, {
        token: user.token,
        body: { label: 'CF', secret: cf.token },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Could not reach Cloudflare at http:\/\/127\.0\.0\.1:9/);
    } finally {
      await down.close();
    }
  });
});
