import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CcRef, FirewallChange, FirewallState } from '../../features/firewall/state';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * The firewall's API (spec "Firewall") over a fake agent that keeps the last state it was sent
 * and the runtime elements: what reaches the agent, when, and what the client sees.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let applied: { state: FirewallState & { cc: string[] }; change: FirewallChange | null }[] = [];
let refuse: string | null = null;
const ignored: string[][] = [];
/** What the fake server enforces: the last state it took (kept across tests). */
let last: (FirewallState & { cc: string[] }) | undefined;
/** Country range parts the fake agent was sent, by list key and part number. */
const parts = new Map<string, Map<number, string[]>>();
/** The lists it joined (as the agent keeps their nft files), by key. */
const kept = new Map<string, string[]>();
let partsSent = 0;
/** The country list the last apply named. */
let lastRef: CcRef | null = null;

/** The list an apply names: joined from the parts just sent and checked, or one kept before. */
function stagedList(ref: CcRef | null): string[] {
  if (!ref) return [];
  if (!ref.sent) return kept.get(ref.key)!;
  const mine = parts.get(ref.key)!;
  const list = Array.from({ length: ref.sent.parts }, (_, i) => mine.get(i)!).flat();
  expect(createHash('sha256').update(list.join('\n')).digest('hex')).toBe(ref.sent.sha256);
  expect(list).toHaveLength(ref.sent.count);
  kept.set(ref.key, list);
  return list;
}

const path = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'firewall.ccHave': (a: { key: string }) => ({ have: kept.has(a.key) }),
    'firewall.ccPart': (a: { key: string; part: number; ranges: string[] }) => {
      partsSent += 1;
      parts.set(a.key, (parts.get(a.key) ?? new Map()).set(a.part, a.ranges));
      return { staged: a.ranges.length };
    },
    'firewall.apply': (a: {
      state: FirewallState;
      cc: CcRef | null;
      change: FirewallChange | null;
    }) => {
      if (refuse) throw new Error(refuse);
      lastRef = a.cc;
      const state = { ...a.state, cc: stagedList(a.cc) };
      applied.push({ state, change: a.change });
      last = state;
      return { mode: state.enabled ? (a.change ? 'element' : 'full') : 'off', ms: 1 };
    },
    'firewall.status': () => {
      return {
        running: Boolean(last?.enabled),
        enabled: Boolean(last?.enabled),
        counts: {
          allow: last?.allow.length ?? 0,
          deny: last?.deny.length ?? 0,
          temp_allow: 0,
          temp_deny: 0,
        },
        ssh_ports: [22],
      };
    },
    // The ignore list is fail2ban's (features/fail2ban): its jails are written again with it.
    'fail2ban.ignore': (a: { ignore: string[] }) => {
      if (refuse) throw new Error(refuse);
      ignored.push(a.ignore);
      return { applied: true };
    },
    'firewall.denylist': () => ({
      data: (last?.deny ?? []).map((ip) => ({
        ip,
        kind: 'deny',
        port: null,
        expires_in: null,
      })),
    }),
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});
beforeEach(() => {
  applied = [];
  refuse = null;
});

describe('settings and service', () => {
  it('starts off with CSF-like defaults, and reaches the agent only once enabled', async () => {
    const read = await call('GET', path('csf'));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ enabled: false, ddos_status: false, syn_flood_rate: 100 });
    const ports = await call('GET', path('ports/in'));
    expect(ports.json()).toMatchObject({ direction: 'in', tcp: expect.stringContaining('22') });

    // A stopped firewall only keeps the list: nothing is sent.
    const add = await call('POST', path('csf/csf_allow'), { ip: '192.0.2.10', comment: 'office' });
    expect(add.statusCode, add.body).toBe(201);
    expect(applied).toHaveLength(0);

    const on = await call('PATCH', path('csf'), {
      enabled: true,
      ddos_status: true,
      conn_limit: 30,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, ddos_status: true, conn_limit: 30 });
    expect(applied).toHaveLength(1);
    expect(applied[0]!.change).toBeNull();
    expect(applied[0]!.state).toMatchObject({
      enabled: true,
      allow: ['192.0.2.10'],
      ddos: { conn_limit: 30 },
    });
  });

  it('runs the allowlisted service actions and refuses any other', async () => {
    const status = await call('GET', `${path('csf/service')}?action=status`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ running: true, ssh_ports: [22] });
    const reload = await call('GET', `${path('csf/service')}?action=reload`);
    expect(reload.statusCode).toBe(200);
    expect(applied).toHaveLength(1);
    const bad = await call('GET', `${path('csf/service')}?action=flush`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['action']);
  });

  it('puts the settings back when the server refuses them', async () => {
    refuse = 'nft refused the ruleset';
    const res = await call('PATCH', path('csf'), { syn_flood_rate: 5 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/nft refused/);
    expect((await call('GET', path('csf'))).json().syn_flood_rate).toBe(100);
  });

  it('normalizes port lists and answers a bad one at its field', async () => {
    const res = await call('PATCH', path('ports/in'), { tcp: '443, 22,80, 8000:8010', udp: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ direction: 'in', tcp: '22,80,443,8000-8010', udp: '' });
    expect(applied.at(-1)!.state.tcp_in).toEqual([
      [22, 22],
      [80, 80],
      [443, 443],
      [8000, 8010],
    ]);
    const bad = await call('PATCH', path('ports/out'), { tcp: '80,70000' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['tcp']);
  });
});

describe('allow, deny and ignore lists', () => {
  it('adds a normalized entry as one runtime element, and refuses duplicates at the field', async () => {
    const res = await call('POST', path('csf/csf_deny'), {
      ip: '2001:DB8:0:0::1',
      comment: 'scanner',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ ip: '2001:db8::1', comment: 'scanner' });
    expect(applied.at(-1)!.change).toEqual({
      action: 'add',
      list: 'deny',
      ip: '2001:db8::1',
      port: null,
      ttl: null,
    });
    expect(applied.at(-1)!.state.deny).toContain('2001:db8::1');

    const block = await call('POST', path('csf/csf_deny'), { ip: '198.51.100.77/24' });
    expect(block.json().ip).toBe('198.51.100.0/24');
    const twice = await call('POST', path('csf/csf_deny'), { ip: '2001:db8::0:1' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors).toEqual({ ip: '2001:db8::1 is already on the deny list' });
  });

  it("leaves the change in the server's activity log, with who made it", async () => {
    const res = await call('GET', path('activity'));
    const lines = (res.json() as { data: { message: string; who: string; status: string }[] }).data;
    const deny = lines.filter((l) => l.message.includes('2001:db8::1'));
    expect(deny.length, JSON.stringify(lines.slice(0, 5))).toBeGreaterThan(0);
    expect(deny[0]).toMatchObject({ who: owner.email, status: 'done' });
  });

  it("refuses everyone (/0), garbage and the server's own loopback at the ip field", async () => {
    for (const ip of ['0.0.0.0/0', '::/0', '300.1.1.1', '1.2.3.4/33', 'example.com', ''])
      expect((await call('POST', path('csf/csf_deny'), { ip })).json().errors).toHaveProperty('ip');
    const self = await call('POST', path('csf/csf_deny'), { ip: '127.0.0.0/8' });
    expect(self.json().errors.ip).toMatch(/own address/);
    // Allowing loopback is fine.
    expect((await call('POST', path('csf/csf_allow'), { ip: '127.0.0.1' })).statusCode).toBe(201);
  });

  it('lists newest first, finds by ?ip, removes by ip and by id with the spec message', async () => {
    const list = await call('GET', path('csf/csf_deny'));
    expect(list.json().total).toBe(2);
    expect(list.json().data[0].ip).toBe('198.51.100.0/24');
    const one = await call('GET', `${path('csf/csf_deny')}?ip=2001:db8::1`);
    expect(one.json().data).toHaveLength(1);

    const byIp = await call('DELETE', `${path('csf/csf_deny')}?ip=198.51.100.0/24`);
    expect(byIp.statusCode, byIp.body).toBe(200);
    expect(byIp.json()).toEqual({
      message: 'IP address removed successfully!',
      ip: '198.51.100.0/24',
    });
    expect(applied.at(-1)!.change).toMatchObject({ action: 'delete', list: 'deny' });

    const id = one.json().data[0].id as number;
    // The id of a deny entry is not one of the allow list's.
    expect((await call('DELETE', path(`csf/csf_allow/${id}`))).statusCode).toBe(404);
    const byId = await call('DELETE', path(`csf/csf_deny/${id}`));
    expect(byId.json().message).toBe('IP address removed successfully!');
    expect((await call('GET', path('csf/csf_deny'))).json().total).toBe(0);
    expect((await call('DELETE', `${path('csf/csf_deny')}?ip=192.0.2.99`)).statusCode).toBe(404);
  });

  it('hands the ignore list to fail2ban, not to the firewall, and takes a refused row back', async () => {
    const before = applied.length;
    expect((await call('POST', path('csf/csf_ignore'), { ip: '192.0.2.50' })).statusCode).toBe(201);
    expect((await call('POST', path('csf/csf_ignore'), { ip: '192.0.2.51' })).statusCode).toBe(201);
    expect(applied.length).toBe(before);
    expect(ignored.at(-1)).toEqual(['192.0.2.50', '192.0.2.51']);
    expect((await call('DELETE', `${path('csf/csf_ignore')}?ip=192.0.2.50`)).statusCode).toBe(200);
    expect(ignored.at(-1)).toEqual(['192.0.2.51']);

    refuse = 'fail2ban refused the new configuration';
    const res = await call('POST', path('csf/csf_ignore'), { ip: '192.0.2.52' });
    expect(res.statusCode).toBe(422);
    expect((await call('GET', path('csf/csf_ignore'))).json().total).toBe(1);
  });

  it('takes the row back out when the server refuses the element', async () => {
    refuse = 'nft add element: Error';
    const res = await call('POST', path('csf/csf_deny'), { ip: '203.0.113.9' });
    expect(res.statusCode).toBe(422);
    expect((await call('GET', `${path('csf/csf_deny')}?ip=203.0.113.9`)).json().total).toBe(0);
  });

  it('reads the live deny list from the server', async () => {
    await call('POST', path('csf/csf_deny'), { ip: '203.0.113.10' });
    const res = await call('GET', path('csf/csf-denylist'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: [{ ip: '203.0.113.10', kind: 'deny', port: null, expires_in: null }],
      total: 1,
    });
  });
});

describe('temporary rules', () => {
  it('adds a deny with a ttl and a port, lists it with its time left, ends it', async () => {
    const res = await call('POST', path('trules/deny'), { ip: '203.0.113.20', ttl: 600, port: 22 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'deny', ip: '203.0.113.20', port: 22, ttl: 600 });
    expect(applied.at(-1)!.change).toEqual({
      action: 'add',
      list: 'tempdeny',
      ip: '203.0.113.20',
      port: 22,
      ttl: 600,
    });
    const list = await call('GET', path('trules/deny'));
    expect(list.json().data[0].time_left).toBeGreaterThan(590);
    expect((await call('GET', path('trules/allow'))).json().total).toBe(0);

    const id = list.json().data[0].id as number;
    expect((await call('DELETE', path(`trules/allow/${id}`))).statusCode).toBe(404);
    const gone = await call('DELETE', path(`trules/deny/${id}`));
    expect(gone.statusCode, gone.body).toBe(200);
    expect(applied.at(-1)!.change).toMatchObject({ action: 'delete', list: 'tempdeny', port: 22 });
  });

  it('takes one address and a ttl up to 30 days, at their fields', async () => {
    const block = await call('POST', path('trules/allow'), { ip: '192.0.2.0/24', ttl: 60 });
    expect(Object.keys(block.json().errors)).toEqual(['ip']);
    const long = await call('POST', path('trules/allow'), { ip: '192.0.2.1', ttl: 31 * 86400 });
    expect(Object.keys(long.json().errors)).toEqual(['ttl']);
  });

  it('refuses writes to a running firewall while the server is offline, and keeps no row', async () => {
    await agent.disconnect();
    try {
      const res = await call('POST', path('csf/csf_deny'), { ip: '203.0.113.30' });
      expect(res.statusCode).toBe(409);
      expect((await call('GET', `${path('csf/csf_deny')}?ip=203.0.113.30`)).json().total).toBe(0);
      // Reading the panel's lists still works offline.
      expect((await call('GET', path('csf'))).statusCode).toBe(200);
    } finally {
      await agent.reconnect();
    }
  });
});

describe('country blocking', () => {
  it('refuses countries while no ranges are loaded, saying so', async () => {
    const cc = await call('GET', path('csf/cc'));
    expect(cc.json()).toEqual({ countries: [], loaded: [] });
    const res = await call('PATCH', path('csf/cc'), { countries: ['DE'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.countries).toMatch(/No country IP ranges are loaded/);
  });

  it('loads the admin CSV, then denies the chosen countries with their ranges', async () => {
    const admin = await live.t.user({ admin: true });
    const csv =
      '"192.0.2.0","192.0.2.255","ZZ"\n2001:db8::,2001:db8::ff,ZZ\n198.51.100.0,198.51.100.9,YY\nnot,a,line\n';
    const load = await live.t.call('POST', '/api/v1/admin/country-ranges', {
      token: admin.token,
      body: { csv },
    });
    expect(load.statusCode, load.body).toBe(200);
    expect(load.json()).toEqual({ countries: 2, ranges: 3, skipped: 1 });
    expect((await call('POST', '/api/v1/admin/country-ranges', { csv })).statusCode).toBe(403);
    const loaded = await live.t.call('GET', '/api/v1/admin/country-ranges', { token: admin.token });
    expect(loaded.json().data).toEqual([
      expect.objectContaining({ country: 'YY', ranges: 1 }),
      expect.objectContaining({ country: 'ZZ', ranges: 2 }),
    ]);

    const bad = await call('PATCH', path('csf/cc'), { countries: ['DEU'] });
    expect(Object.keys(bad.json().errors)).toEqual(['countries.0']);
    const missing = await call('PATCH', path('csf/cc'), { countries: ['FR'] });
    expect(missing.json().errors.countries).toMatch(/No ranges are loaded for FR/);
    const res = await call('PATCH', path('csf/cc'), { countries: ['zz'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().countries).toEqual(['ZZ']);
    expect(applied.at(-1)!.state.cc).toEqual(['192.0.2.0-192.0.2.255', '2001:db8::-2001:db8::ff']);
  });

  it('sends a list larger than one message in parts, once; a later change names it', async () => {
    const admin = await live.t.user({ admin: true });
    // 20,001 single addresses in 198.18.0.0/15 (benchmarking, never routed): three parts.
    const lines = Array.from({ length: 20_001 }, (_, i) => {
      const ip = `198.18.${Math.floor(i / 256)}.${i % 256}`;
      return `${ip},${ip},XA`;
    });
    const load = await live.t.call('POST', '/api/v1/admin/country-ranges', {
      token: admin.token,
      body: { csv: lines.join('\n') },
    });
    expect(load.json()).toMatchObject({ countries: 1, ranges: 20_001 });
    partsSent = 0;
    const res = await call('PATCH', path('csf/cc'), { countries: ['XA', 'ZZ'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(partsSent).toBe(3);
    const cc = applied.at(-1)!.state.cc;
    expect(cc).toHaveLength(20_003);
    expect(cc).toContain('198.18.78.32');
    expect(cc).toContain('2001:db8::-2001:db8::ff');

    expect(lastRef?.sent).toMatchObject({ parts: 3, count: 20_003 });
    const key = lastRef!.key;

    // The agent holds that list now: adding an address names it, sends and reads no range.
    const deny = await call('POST', path('csf/csf_deny'), { ip: '192.0.2.77' });
    expect(deny.statusCode, deny.body).toBe(201);
    expect(partsSent).toBe(3);
    expect(lastRef).toEqual({ key, sent: null });
    expect(applied.at(-1)!.state.cc).toEqual(cc);
    await call('DELETE', `${path('csf/csf_deny')}?ip=192.0.2.77`);
    expect(lastRef).toEqual({ key, sent: null });

    // A new load of a country makes another list: the next apply sends it.
    const reload = await live.t.call('POST', '/api/v1/admin/country-ranges', {
      token: admin.token,
      body: { csv: '198.18.0.0,198.18.0.255,XA' },
    });
    expect(reload.statusCode, reload.body).toBe(200);
    await call('POST', path('csf/csf_deny'), { ip: '192.0.2.78' });
    expect(lastRef?.key).not.toBe(key);
    expect(lastRef?.sent).toMatchObject({ parts: 1, count: 3 });
    expect(applied.at(-1)!.state.cc).toContain('198.18.0.0-198.18.0.255');
    await call('DELETE', `${path('csf/csf_deny')}?ip=192.0.2.78`);
    await call('PATCH', path('csf/cc'), { countries: [] });
    expect(applied.at(-1)!.state.cc).toEqual([]);
  }, 60_000);
});
