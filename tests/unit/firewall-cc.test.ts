import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ccFileOf,
  countriesFile,
  haveList,
  keepOnly,
  stagePart,
} from '../../features/firewall/agentCc';
import { rangeBlocks, renderCountries } from '../../features/firewall/countrySets';
import { cidrText } from '../../features/firewall/addresses';
import { renderRuleset } from '../../features/firewall/render';

/** The agent's country range lists, sent in parts and kept as nft files, on a real directory. */
let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fw-cc-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const sha = (ranges: string[]) => createHash('sha256').update(ranges.join('\n')).digest('hex');
const key = 'a'.repeat(64);
const list = ['192.0.2.0-192.0.2.9', '198.51.100.7', '2001:db8::-2001:db8::ff'];
const sent = (over: Partial<{ parts: number; count: number; sha256: string }> = {}) => ({
  key,
  sent: { parts: 2, count: 3, sha256: sha(list), ...over },
});

describe('country ranges as CIDR blocks', () => {
  it('covers a range exactly with the fewest blocks', () => {
    const blocks = (r: string) => rangeBlocks(r).map(cidrText);
    expect(blocks('192.0.2.0-192.0.2.9')).toEqual(['192.0.2.0/29', '192.0.2.8/31']);
    expect(blocks('198.51.100.7')).toEqual(['198.51.100.7']);
    expect(blocks('10.0.0.0-10.255.255.255')).toEqual(['10.0.0.0/8']);
    expect(blocks('192.0.2.255-192.0.3.0')).toEqual(['192.0.2.255', '192.0.3.0']);
    expect(blocks('2001:db8::-2001:db8::ff')).toEqual(['2001:db8::/120']);
    expect(blocks('2001:db8::1-2001:db8::2')).toEqual(['2001:db8::1', '2001:db8::2']);
    expect(blocks('0.0.0.0-255.255.255.255')).toEqual(['0.0.0.0/0']);
  });

  it('writes one hash set per family and length, matched through its mask', () => {
    const text = renderCountries(key, [...list, '192.0.2.16-192.0.2.23']);
    expect(text).toContain('add set inet stackdeck ccdeny4_29 { type ipv4_addr; }');
    expect(text).toMatch(
      /add element inet stackdeck ccdeny4_29 \{\n192\.0\.2\.0,\n192\.0\.2\.16\n\}/,
    );
    expect(text).toContain(
      'add rule inet stackdeck countries ip saddr & 255.255.255.248 @ccdeny4_29 drop',
    );
    expect(text).toContain('add rule inet stackdeck countries ip saddr @ccdeny4_32 drop');
    expect(text).toContain(
      'add rule inet stackdeck countries ip6 saddr & ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00 @ccdeny6_120 drop',
    );
    // No interval set: nft 1.0.6 would read it back before every element added elsewhere.
    expect(text).not.toMatch(/interval/);
  });

  it('is included after the table, whose input chain jumps to the countries after the deny lists', () => {
    const state = {
      enabled: true,
      ddos_status: false,
      ddos: {
        syn_flood_rate: 1,
        syn_flood_burst: 1,
        conn_limit: 0,
        port_flood_hits: 0,
        port_flood_seconds: 1,
      },
      tcp_in: [],
      udp_in: [],
      tcp_out: [],
      udp_out: [],
      allow: [],
      deny: [],
      temp: [],
    };
    const file = ccFileOf('/etc/stackdeck/firewall/cc', key);
    const lines = renderRuleset(state, { panel: [], ssh_ports: [22] }, '', file).split('\n');
    expect(lines.at(-2)).toBe(`include "/etc/stackdeck/firewall/cc/${key}.nft"`);
    expect(lines.indexOf('    jump countries')).toBeGreaterThan(
      lines.indexOf('    ip6 saddr . tcp dport @tempdenyport6 drop'),
    );
    expect(lines.indexOf('    jump countries')).toBeLessThan(
      lines.indexOf('    iif "lo" ip saddr 127.0.0.1 accept'),
    );
    expect(renderRuleset(state, { panel: [], ssh_ports: [22] })).not.toContain('include');
  });
});

describe('country range lists on the agent', () => {
  it('joins the parts in order, checks them, and keeps the list as its nft file', async () => {
    await stagePart(dir, { key, part: 1, ranges: list.slice(2) });
    await stagePart(dir, { key, part: 0, ranges: list.slice(0, 2) });
    expect(await haveList(dir, key)).toBe(false);
    const file = await countriesFile(dir, sent());
    expect(file).toBe(ccFileOf(dir, key));
    expect(await fs.readFile(file, 'utf8')).toBe(renderCountries(key, list));
    expect(await haveList(dir, key)).toBe(true);
    expect(await fs.readdir(dir)).toEqual([`${key}.nft`]);
    // Named again later, the kept file serves as it is: not read, not written.
    const { mtimeMs } = await fs.stat(file);
    expect(await countriesFile(dir, { key, sent: null })).toBe(file);
    expect((await fs.stat(file)).mtimeMs).toBe(mtimeMs);
    await keepOnly(dir, null);
    expect(await fs.readdir(dir)).toEqual([]);
    await expect(countriesFile(dir, { key, sent: null })).rejects.toThrow(
      /no longer on this server/,
    );
  });

  it('refuses a missing part, other content, a wrong count and a range that is not one', async () => {
    await stagePart(dir, { key, part: 0, ranges: list.slice(0, 2) });
    await expect(countriesFile(dir, sent())).rejects.toThrow(/Part 2 of 2/);
    await stagePart(dir, { key, part: 1, ranges: ['203.0.113.1'] });
    await expect(countriesFile(dir, sent())).rejects.toThrow(/do not match/);
    await stagePart(dir, { key, part: 1, ranges: list.slice(2) });
    await expect(countriesFile(dir, sent({ count: 4 }))).rejects.toThrow(/do not match/);
    // A part changed on disk behind the agent's back, even with a matching hash, is refused.
    const bad = ['192.0.2.9-192.0.2.0'];
    await fs.writeFile(path.join(dir, `${key}.0`), bad.join('\n'));
    await expect(
      countriesFile(dir, { key, sent: { parts: 1, count: 1, sha256: sha(bad) } }),
    ).rejects.toThrow(/do not match/);
    expect(await haveList(dir, key)).toBe(false);
  });
});
