import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import {
  type Panel,
  type ServerRecord,
  installedSandbox,
  startPanel,
  waitConnected,
} from './harness/panel';
import { statusFrom } from './harness/curl';

/**
 * Country blocking and the connections-per-address limit on a sandbox server, with traffic:
 * the real agent and nft, clients inside the sandbox's own network namespace bound to
 * loopback-range sources (127.0.0.x, 127.16.x.x), never private or public addresses. The
 * country ranges are made up, inside 127.0.0.0/8 too.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

/**
 * Opens `count` TCP connections to nginx from `source` and holds them all open while it
 * opens the next: prints one word per connection, `open`, `refused` or `timeout`.
 */
const HOLD = `
import socket, sys
held = []
for _ in range(int(sys.argv[2])):
    s = socket.socket()
    s.settimeout(2)
    s.bind((sys.argv[1], 0))
    try:
        s.connect(('127.0.0.1', 80))
        held.append(s)
        print('open')
    except ConnectionRefusedError:
        print('refused')
    except OSError:
        print('timeout')
`;
async function hold(source: string, count: number): Promise<string[]> {
  const res = await sb.execOk(['python3', '-c', HOLD, source, String(count)]);
  return res.stdout.trim().split('\n');
}

/** The admin's CSV load. */
async function loadCsv(csv: string) {
  const admin = await panel.t.user({ admin: true });
  return panel.t.call('POST', '/api/v1/admin/country-ranges', {
    token: admin.token,
    body: { csv },
  });
}

const ip = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

beforeAll(async () => {
  process.env.STACKDECK_FIREWALL_CONFIRM_MS = '3000';
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'firewall-limits', ['nginx']));
  const on = await panel.api('PATCH', path('csf'), { enabled: true });
  expect(on.statusCode, on.body).toBe(200);
}, 180_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('country blocking and connection limits, with traffic', () => {
  it('a denied country cannot connect from its range; the next address can', async () => {
    const load = await loadCsv('start_ip,end_ip,country\n127.0.0.20,127.0.0.29,XB\n');
    expect(load.json()).toEqual({ countries: 1, ranges: 1, skipped: 1 });
    expect(await statusFrom(sb, '127.0.0.25')).toBe('200');
    const deny = await panel.api('PATCH', path('csf/cc'), { countries: ['XB'] });
    expect(deny.statusCode, deny.body).toBe(200);
    expect(await statusFrom(sb, '127.0.0.20')).toBe('000');
    expect(await statusFrom(sb, '127.0.0.29')).toBe('000');
    expect(await statusFrom(sb, '127.0.0.30')).toBe('200');
    expect(await statusFrom(sb, '127.0.0.19')).toBe('200');
  }, 60_000);

  it('applies 60,000 ranges (one large country) in parts and one checked transaction', async () => {
    // Two-address ranges with gaps, 127.16.0.0 onwards: auto-merge keeps them apart.
    const base = (127 << 24) | (16 << 16);
    const rows = Array.from({ length: 60_000 }, (_, i) => {
      const start = base + i * 4;
      return `${ip(start)},${ip(start + 1)},XC`;
    });
    expect((await loadCsv(rows.join('\n'))).json()).toMatchObject({ ranges: 60_000 });
    const started = Date.now();
    const deny = await panel.api('PATCH', path('csf/cc'), { countries: ['XB', 'XC'] });
    const applyMs = Date.now() - started;
    expect(deny.statusCode, deny.body).toBe(200);
    // A two-address range is one /31 block: all 60,000 are in the /31 set, first and last.
    const set = await sb.execOk(['nft', 'list', 'set', 'inet', 'stackdeck', 'ccdeny4_31']);
    expect(set.stdout.match(/\b127\.1[6-9]\.\d+\.\d+\b/g)).toHaveLength(60_000);
    expect(set.stdout).toMatch(/\b127\.16\.0\.0\b/);
    expect(set.stdout).toContain(ip(base + 59_999 * 4));
    // The ranges live in their own file, included by the table's file.
    const countries = await sb.execOk([
      'bash',
      '-c',
      'grep -h "^include" /etc/stackdeck/firewall/stackdeck.nft',
    ]);
    const file = /^include "([^"]+)"$/.exec(countries.stdout.trim())![1]!;
    const stamp = async () => (await sb.execOk(['stat', '-c', '%i %Y.%y', file])).stdout.trim();
    const before = await stamp();
    expect(await statusFrom(sb, '127.16.0.1')).toBe('000');
    expect(await statusFrom(sb, ip(base + 40_000 * 4))).toBe('000');
    expect(await statusFrom(sb, '127.16.0.2')).toBe('200');
    expect(await statusFrom(sb, '127.0.0.25')).toBe('000');

    // The agent holds the list: one more address is a runtime element, no ranges sent again.
    const one = Date.now();
    const add = await panel.api('POST', path('csf/csf_deny'), { ip: '127.0.0.8' });
    const addMs = Date.now() - one;
    expect(add.statusCode, add.body).toBe(201);
    expect(await statusFrom(sb, '127.0.0.8')).toBe('000');
    // Neither the countries file nor their ranges were written again: the table's file is small.
    expect(await stamp()).toBe(before);
    const kept = await sb.execOk(['stat', '-c', '%s', '/etc/stackdeck/firewall/stackdeck.nft']);
    expect(Number(kept.stdout)).toBeLessThan(50_000);
    console.log(
      `firewall: 60,000 country ranges applied in ${applyMs} ms; one address ${addMs} ms`,
    );
    await waitConnected(panel, server.id);
    const off = await panel.api('PATCH', path('csf/cc'), { countries: [] });
    expect(off.statusCode, off.body).toBe(200);
    expect(await statusFrom(sb, '127.16.0.1')).toBe('200');
  }, 240_000);

  it('refuses connections over the per-address limit; another address still connects', async () => {
    const limit = await panel.api('PATCH', path('csf'), {
      ddos_status: true,
      conn_limit: 3,
      port_flood_hits: 0,
    });
    expect(limit.statusCode, limit.body).toBe(200);
    expect(await hold('127.0.0.40', 5)).toEqual(['open', 'open', 'open', 'refused', 'refused']);
    // Its held connections are gone with the client: the address connects again.
    expect(await hold('127.0.0.40', 1)).toEqual(['open']);
    expect(await statusFrom(sb, '127.0.0.41')).toBe('200');
  }, 60_000);
});
