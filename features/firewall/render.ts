/**
 * The nftables file of the firewall: a pure function of the desired state and the lock-out
 * guard, so it is unit-tested and the agent only writes, checks and loads what it returns.
 *
 * The file replaces `table inet stackdeck` in one transaction (`table ... {}` makes sure there
 * is one to delete, then the new table): nft applies a file atomically, so the server is never
 * between two rulesets, and no other table (fail2ban's, Docker's) is touched.
 *
 * Order of the input chain, first match wins (after the server admin's own local rules, if any):
 *  1. established/related traffic: the agent's live connection to the panel and every reply;
 *  2. the lock-out guard: the panel's address and port the agent uses, and the SSH port(s)
 *     `sshd -T` reports, accepted before any deny so no list can cut the owner off;
 *  3. allow lists (permanent, then temporary) before deny lists: CSF's "allow beats deny";
 *  4. deny lists; 5. loopback; 6. ICMP; 7. the DDoS limits; 8. the open ports; policy drop.
 * Loopback is accepted only after the deny sets (5), not first as most rulesets do, and only
 * from the addresses the kernel picks for the server's own traffic: 127.0.0.1, ::1 and the
 * server's non-loopback addresses (its traffic to itself also crosses lo). Local software uses
 * those, and 127.0.0.1/::1 cannot be denied, so nothing local is lost. A client bound to
 * another loopback-range address (127.0.0.5) is treated like a remote one: denied, allowed and
 * filtered by port. That is what the sandbox tests rely on: their clients are loopback-range
 * sources (never private or public addresses) inside the sandbox's own network namespace.
 */
import type { FirewallState, TempElement } from './state';
import type { PortRange } from './ports';

export const TABLE = 'stackdeck';

export interface Guard {
  /** Where the agent reaches the panel (resolved addresses of its URL, and the port). */
  panel: { family: 4 | 6; addr: string; port: number }[];
  /** sshd's listening ports. */
  ssh_ports: number[];
}

const v6 = (ip: string) => ip.includes(':');
const ranges = (list: readonly PortRange[]) =>
  list.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');

function set(name: string, type: string, flags: string, elements: string[], extra = ''): string {
  const body = elements.length ? ` elements = { ${elements.join(', ')} }` : '';
  return `  set ${name} { type ${type};${flags ? ` flags ${flags};` : ''}${extra}${body ? `${body};` : ''} }`;
}

function tempSets(temp: readonly TempElement[]): string[] {
  const out: string[] = [];
  for (const kind of ['allow', 'deny'] as const)
    for (const fam of [4, 6] as const) {
      const type = fam === 4 ? 'ipv4_addr' : 'ipv6_addr';
      const mine = temp.filter((t) => t.kind === kind && v6(t.ip) === (fam === 6));
      const plain = mine.filter((t) => t.port === null).map((t) => `${t.ip} timeout ${t.ttl}s`);
      const ported = mine
        .filter((t) => t.port !== null)
        .map((t) => `${t.ip} . ${t.port} timeout ${t.ttl}s`);
      out.push(set(`temp${kind}${fam}`, type, 'timeout', plain));
      out.push(set(`temp${kind}port${fam}`, `${type} . inet_service`, 'timeout', ported));
    }
  return out;
}

/** The DDoS rules of the input chain, and the sets and chain they use. */
function ddos(state: FirewallState): { sets: string[]; rules: string[]; chains: string[] } {
  if (!state.ddos_status) return { sets: [], rules: [], chains: [] };
  const d = state.ddos;
  const sets: string[] = [];
  const rules = ['    tcp flags & (fin|syn|rst|ack) == syn ct state new jump synflood'];
  if (d.conn_limit > 0) {
    sets.push(set('connlimit4', 'ipv4_addr', 'dynamic', [], ' size 65535;'));
    sets.push(set('connlimit6', 'ipv6_addr', 'dynamic', [], ' size 65535;'));
    rules.push(
      `    meta l4proto tcp ct state new add @connlimit4 { ip saddr ct count over ${d.conn_limit} } reject with tcp reset`,
      `    meta l4proto tcp ct state new add @connlimit6 { ip6 saddr ct count over ${d.conn_limit} } reject with tcp reset`,
    );
  }
  if (d.port_flood_hits > 0) {
    // CSF counts hits in a window; nft's limit is a token bucket: the same average (hits per
    // window, as a per-minute rate) with the hits as the burst.
    const perMinute = Math.max(1, Math.round((d.port_flood_hits * 60) / d.port_flood_seconds));
    const timeout = ` timeout ${d.port_flood_seconds}s;`;
    sets.push(set('portflood4', 'ipv4_addr . inet_service', 'dynamic, timeout', [], timeout));
    sets.push(set('portflood6', 'ipv6_addr . inet_service', 'dynamic, timeout', [], timeout));
    const limit = `limit rate over ${perMinute}/minute burst ${d.port_flood_hits} packets`;
    rules.push(
      `    tcp flags & (fin|syn|rst|ack) == syn ct state new add @portflood4 { ip saddr . tcp dport ${limit} } drop`,
      `    tcp flags & (fin|syn|rst|ack) == syn ct state new add @portflood6 { ip6 saddr . tcp dport ${limit} } drop`,
    );
  }
  const chains = [
    '  chain synflood {',
    `    limit rate ${d.syn_flood_rate}/second burst ${d.syn_flood_burst} packets return`,
    '    drop',
    '  }',
  ];
  return { sets, rules, chains };
}

function guardRules(guard: Guard, dir: 'in' | 'out'): string[] {
  const out: string[] = [];
  for (const p of guard.panel) {
    const ip = p.family === 4 ? 'ip' : 'ip6';
    if (dir === 'in') {
      // A panel on this very host: the agent's new connections arrive here.
      out.push(`    ${ip} daddr ${p.addr} tcp dport ${p.port} accept`);
      out.push(`    ${ip} saddr ${p.addr} tcp sport ${p.port} accept`);
    } else out.push(`    ${ip} daddr ${p.addr} tcp dport ${p.port} accept`);
  }
  if (dir === 'in' && guard.ssh_ports.length)
    out.push(
      `    tcp dport { ${[...new Set(guard.ssh_ports)].sort((a, b) => a - b).join(', ')} } accept`,
    );
  return out;
}

/**
 * The whole file: one transaction that replaces the panel's table. `countries`: the file of
 * the denied countries' ranges (countrySets.ts), included after the table, so it loads in
 * the same transaction and is checked with it, and a change of the lists never rewrites it.
 */
export function renderRuleset(
  state: FirewallState,
  guard: Guard,
  local = '',
  countries: string | null = null,
): string {
  const own = local
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => `    ${l}`);
  const allow4 = state.allow.filter((a) => !v6(a));
  const allow6 = state.allow.filter(v6);
  const deny4 = state.deny.filter((a) => !v6(a));
  const deny6 = state.deny.filter(v6);
  const filterOut = state.tcp_out.length > 0 || state.udp_out.length > 0;
  const flood = ddos(state);
  const lines = [
    '#!/usr/sbin/nft -f',
    '# Written by the Stackdeck agent from the panel: changes made here are replaced.',
    `table inet ${TABLE} {}`,
    `delete table inet ${TABLE}`,
    `table inet ${TABLE} {`,
    set('allow4', 'ipv4_addr', 'interval', allow4, ' auto-merge;'),
    set('allow6', 'ipv6_addr', 'interval', allow6, ' auto-merge;'),
    set('deny4', 'ipv4_addr', 'interval', deny4, ' auto-merge;'),
    set('deny6', 'ipv6_addr', 'interval', deny6, ' auto-merge;'),
    ...tempSets(state.temp),
    set('tcp_in', 'inet_service', 'interval', state.tcp_in.length ? [ranges(state.tcp_in)] : []),
    set('udp_in', 'inet_service', 'interval', state.udp_in.length ? [ranges(state.udp_in)] : []),
    set('tcp_out', 'inet_service', 'interval', state.tcp_out.length ? [ranges(state.tcp_out)] : []),
    set('udp_out', 'inet_service', 'interval', state.udp_out.length ? [ranges(state.udp_out)] : []),
    ...flood.sets,
    // The denied countries' sets and rules come from their own file, included below.
    '  chain countries {',
    '  }',
    '  chain input {',
    '    type filter hook input priority filter; policy drop;',
    ...own,
    '    ct state established,related accept',
    '    ct state invalid drop',
    ...guardRules(guard, 'in'),
    '    ip saddr @allow4 accept',
    '    ip6 saddr @allow6 accept',
    '    ip saddr @tempallow4 accept',
    '    ip6 saddr @tempallow6 accept',
    '    ip saddr . tcp dport @tempallowport4 accept',
    '    ip6 saddr . tcp dport @tempallowport6 accept',
    '    ip saddr @deny4 drop',
    '    ip6 saddr @deny6 drop',
    '    ip saddr @tempdeny4 drop',
    '    ip6 saddr @tempdeny6 drop',
    '    ip saddr . tcp dport @tempdenyport4 drop',
    '    ip6 saddr . tcp dport @tempdenyport6 drop',
    '    jump countries',
    '    iif "lo" ip saddr 127.0.0.1 accept',
    '    iif "lo" ip saddr != 127.0.0.0/8 accept',
    '    iif "lo" meta nfproto ipv6 accept',
    // IPv6 needs neighbour discovery; pings are answered at a modest rate (CSF's ICMP_IN_RATE).
    '    meta l4proto ipv6-icmp accept',
    '    icmp type echo-request limit rate 5/second accept',
    ...flood.rules,
    '    tcp dport @tcp_in accept',
    '    udp dport @udp_in accept',
    '  }',
    ...flood.chains,
    '  chain output {',
    `    type filter hook output priority filter; policy ${filterOut ? 'drop' : 'accept'};`,
    ...(filterOut
      ? [
          '    ct state established,related accept',
          '    oif "lo" accept',
          ...guardRules(guard, 'out'),
          '    meta l4proto { icmp, ipv6-icmp } accept',
          '    tcp dport @tcp_out accept',
          '    udp dport @udp_out accept',
        ]
      : []),
    '  }',
    '}',
    ...(countries ? [includeOf(countries)] : []),
    '',
  ];
  return lines.join('\n');
}

/** The line of the table's file that loads a countries file (its path is the agent's own). */
export const includeOf = (file: string) => `include "${file}"`;

/** The file that takes the table away (firewall stopped or disabled). */
export const renderRemoval = () => `table inet ${TABLE} {}\ndelete table inet ${TABLE}\n`;

/** The one element a runtime change names, as `nft add|delete element` takes it. */
export function elementOf(change: {
  list: 'allow' | 'deny' | 'tempallow' | 'tempdeny';
  ip: string;
  port: number | null;
  ttl: number | null;
  action: 'add' | 'delete';
}): { set: string; element: string } {
  const fam = v6(change.ip) ? 6 : 4;
  const temp = change.list.startsWith('temp');
  const setName =
    temp && change.port !== null ? `${change.list}port${fam}` : `${change.list}${fam}`;
  const key = temp && change.port !== null ? `${change.ip} . ${change.port}` : change.ip;
  const timeout = change.action === 'add' && temp && change.ttl ? ` timeout ${change.ttl}s` : '';
  return { set: setName, element: `{ ${key}${timeout} }` };
}
