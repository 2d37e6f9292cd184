import { describe, expect, it } from 'vitest';
import { isRangeElement, parseRangesCsv } from '../../features/firewall/countries';
import { entryProblem, normalizeCidr } from '../../features/firewall/addresses';
import { formatPorts, parsePorts } from '../../features/firewall/ports';
import { elementOf, renderRuleset } from '../../features/firewall/render';
import type { FirewallState } from '../../features/firewall/state';

const state = (over: Partial<FirewallState> = {}): FirewallState => ({
  enabled: true,
  ddos_status: false,
  ddos: {
    syn_flood_rate: 100,
    syn_flood_burst: 150,
    conn_limit: 20,
    port_flood_hits: 5,
    port_flood_seconds: 300,
  },
  tcp_in: [
    [22, 22],
    [80, 80],
  ],
  udp_in: [],
  tcp_out: [],
  udp_out: [],
  allow: ['192.0.2.1'],
  deny: ['198.51.100.0/24', '2001:db8::1'],
  temp: [{ kind: 'deny', ip: '203.0.113.5', port: 22, ttl: 60 }],
  ...over,
});
const guard = {
  panel: [{ family: 4 as const, addr: '203.0.113.1', port: 443 }],
  ssh_ports: [2222],
};

describe('addresses', () => {
  it('normalizes IPv4, IPv6 and blocks to one spelling', () => {
    expect(normalizeCidr('192.0.2.7/24')).toBe('192.0.2.0/24');
    expect(normalizeCidr('192.0.2.7/32')).toBe('192.0.2.7');
    expect(normalizeCidr('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normalizeCidr('2001:db8:0:1:0:0:0:0/64')).toBe('2001:db8:0:1::/64');
    expect(normalizeCidr('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(normalizeCidr('1:0:0:1:0:0:0:1')).toBe('1:0:0:1::1');
  });
  it('refuses what is not an address, and every address (/0)', () => {
    for (const bad of [
      '',
      '1.2.3',
      '01.2.3.4',
      '1.2.3.4/33',
      '1::2::3',
      'a.b.c.d',
      '1.2.3.4/-1',
      '; drop',
    ])
      expect(entryProblem(bad)).not.toBeNull();
    expect(entryProblem('0.0.0.0/0')).toMatch(/every address/);
    expect(entryProblem('::/0')).toMatch(/every address/);
  });
});

describe('ports', () => {
  it('reads CSF-style lists, merges and formats them', () => {
    expect(parsePorts('443, 22,80, 30000:30100, 81-90,80')).toEqual([
      [22, 22],
      [80, 90],
      [443, 443],
      [30000, 30100],
    ]);
    expect(formatPorts(parsePorts('443,22')!)).toBe('22,443');
    expect(parsePorts('')).toEqual([]);
    for (const bad of ['0', '70000', '90-80', 'ssh', '22;80']) expect(parsePorts(bad)).toBeNull();
  });
});

describe('the ruleset', () => {
  it('replaces only the panel table, in one file', () => {
    const text = renderRuleset(state(), guard);
    expect(text.split('\n').slice(2, 5)).toEqual([
      'table inet stackdeck {}',
      'delete table inet stackdeck',
      'table inet stackdeck {',
    ]);
    expect(text).not.toMatch(/flush ruleset/);
  });
  it('accepts established traffic and the guard before the allow and deny sets', () => {
    const lines = renderRuleset(state(), guard)
      .split('\n')
      .map((l) => l.trim());
    const at = (rule: string) => lines.indexOf(rule);
    expect(at('ct state established,related accept')).toBeGreaterThan(0);
    expect(at('ip saddr 203.0.113.1 tcp sport 443 accept')).toBeGreaterThan(
      at('ct state established,related accept'),
    );
    expect(at('tcp dport { 2222 } accept')).toBeLessThan(at('ip saddr @allow4 accept'));
    expect(at('ip saddr @allow4 accept')).toBeLessThan(at('ip saddr @deny4 drop'));
    expect(at('ip saddr @deny4 drop')).toBeLessThan(at('iif "lo" ip saddr 127.0.0.1 accept'));
    expect(lines).toContain(
      'set deny4 { type ipv4_addr; flags interval; auto-merge; elements = { 198.51.100.0/24 }; }',
    );
    expect(lines).toContain(
      'set deny6 { type ipv6_addr; flags interval; auto-merge; elements = { 2001:db8::1 }; }',
    );
    expect(lines).toContain(
      'set tempdenyport4 { type ipv4_addr . inet_service; flags timeout; elements = { 203.0.113.5 . 22 timeout 60s }; }',
    );
  });
  it('adds the DDoS limits only when on, and outbound filtering only with outbound ports', () => {
    expect(renderRuleset(state(), guard)).not.toContain('synflood');
    const on = renderRuleset(state({ ddos_status: true }), guard);
    expect(on).toContain('limit rate 100/second burst 150 packets return');
    expect(on).toContain('ct count over 20');
    expect(on).toContain('limit rate over 1/minute burst 5 packets');
    expect(renderRuleset(state(), guard)).toContain('policy accept;');
    const out = renderRuleset(
      state({
        tcp_out: [
          [80, 80],
          [443, 443],
        ],
      }),
      guard,
    );
    expect(out).toMatch(/hook output priority filter; policy drop;/);
    expect(out).toContain('ip daddr 203.0.113.1 tcp dport 443 accept');
  });
  it('puts the admin local rules first, before the guard', () => {
    const lines = renderRuleset(state(), guard, '# mine\ntcp dport 9999 drop\n')
      .split('\n')
      .map((l) => l.trim());
    expect(lines.indexOf('tcp dport 9999 drop')).toBeLessThan(
      lines.indexOf('ct state established,related accept'),
    );
    expect(lines).not.toContain('# mine');
  });
  it('names the one element of a runtime change', () => {
    expect(
      elementOf({ action: 'add', list: 'deny', ip: '2001:db8::1', port: null, ttl: null }),
    ).toEqual({ set: 'deny6', element: '{ 2001:db8::1 }' });
    expect(
      elementOf({ action: 'add', list: 'tempdeny', ip: '192.0.2.1', port: 22, ttl: 30 }),
    ).toEqual({ set: 'tempdenyport4', element: '{ 192.0.2.1 . 22 timeout 30s }' });
    expect(
      elementOf({ action: 'delete', list: 'tempallow', ip: '192.0.2.1', port: null, ttl: null }),
    ).toEqual({ set: 'tempallow4', element: '{ 192.0.2.1 }' });
  });
});

describe('country ranges CSV', () => {
  it('reads DB-IP / IPtoASN lines, quoted or not, IPv4 and IPv6, and skips the rest', () => {
    const csv = [
      'start_ip,end_ip,country_code',
      '"1.0.0.0","1.0.0.255","AU"',
      '2001:DB8::,2001:db8::ffff,de',
      '5.5.5.5,5.5.5.5,FR',
      '9.9.9.9,1.1.1.1,US',
      '1.2.3.4,::1,US',
      '',
    ].join('\n');
    expect(parseRangesCsv(csv)).toEqual({
      ranges: [
        { country: 'AU', range: '1.0.0.0-1.0.0.255', family: 4 },
        { country: 'DE', range: '2001:db8::-2001:db8::ffff', family: 6 },
        { country: 'FR', range: '5.5.5.5', family: 4 },
      ],
      skipped: 3,
    });
    expect(isRangeElement('1.0.0.0-1.0.0.255')).toBe(true);
    expect(isRangeElement('1.0.0.255-1.0.0.0')).toBe(false);
    expect(isRangeElement('1.0.0.0/8')).toBe(false);
  });
});
