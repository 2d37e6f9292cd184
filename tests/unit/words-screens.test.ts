import { describe, expect, it } from 'vitest';
import { originInWords } from '../../features/autoupdates/originWords';
import { SECURITY_PATTERN, SOFTWARE_PATTERNS } from '../../features/autoupdates/aptconf';
import { denyListUnread } from '../../features/firewall/statusWords';
import { LAYOUT_MENUS } from '../../src/layouts/layoutMenus';
import { axisTicks, fitDomain } from '../../features/serverstats/chartDomain';
import { liveFigures } from '../../src/pages/servers/liveFigures';
import { routes } from '../../src/routes/table';

/** Issue 22, "Words, menus and screens a user can trust": the pure parts. */
describe('the stats charts fit their value axis to the range shown', () => {
  const cpu = (values: number[]) => values.map((cpu, at) => ({ at, cpu }));

  it('a CPU at a few percent is drawn over a few percent, not 0-100', () => {
    const [low, high] = fitDomain(cpu([1.2, 2.5, 1.8]), ['cpu'], [0, 100]);
    expect(low).toBeGreaterThanOrEqual(0);
    expect(low).toBeLessThanOrEqual(1.2);
    expect(high).toBeGreaterThanOrEqual(2.5);
    expect(high).toBeLessThan(5);
  });

  it('stays within its bounds and holds every sample', () => {
    expect(fitDomain(cpu([3, 99.5]), ['cpu'], [0, 100])).toEqual([0, 100]);
    const bytes = [{ at: 0, used: 1.2e9, total: 2e9 }];
    const [low, high] = fitDomain(bytes, ['used', 'total']);
    expect(low).toBeLessThanOrEqual(1.2e9);
    expect(low).toBeGreaterThan(0.5e9);
    expect(high).toBeGreaterThanOrEqual(2e9);
    expect(high).toBeLessThan(2.5e9);
  });

  it('ends on round, evenly spaced ticks', () => {
    expect(axisTicks(fitDomain(cpu([5, 52]), ['cpu'], [0, 100]))).toEqual([0, 20, 40, 60]);
    const memory = [{ at: 0, used: 2e9, total: 8e9 }];
    const ticks = axisTicks(fitDomain(memory, ['used', 'total']));
    expect(ticks).toEqual([0, 2.5e9, 5e9, 7.5e9, 1e10]);
  });

  it('gives a flat line and an empty range an axis of their own', () => {
    const [low, high] = fitDomain(cpu([0.4, 0.4]), ['cpu'], [0, 100]);
    expect(low).toBeLessThanOrEqual(0.4);
    expect(high).toBeGreaterThan(0.4);
    expect(high).toBeLessThan(1);
    expect(fitDomain([], ['cpu'], [0, 100])).toEqual([0, 100]);
    expect(fitDomain([{ at: 1, load: Number.NaN }], ['load'])).toEqual([0, 1]);
  });
});

describe('allowed update origins in words', () => {
  it("says Debian's stock patterns in words, not apt's syntax", () => {
    expect(originInWords(SECURITY_PATTERN)).toBe('Debian security updates');
    expect(SOFTWARE_PATTERNS.map(originInWords)).toEqual([
      'Debian point releases',
      'Debian stable updates',
    ]);
  });

  it('names a release, component or site the pattern fixes, short keys included', () => {
    expect(originInWords('origin=Debian,codename=bookworm-security,label=Debian-Security')).toBe(
      'Debian security updates of bookworm',
    );
    expect(originInWords('o=Debian Backports,a=bookworm-backports,c=main')).toBe(
      'Debian Backports backports of bookworm (main)',
    );
    expect(originInWords('site=deb.sury.org')).toBe('Any origin packages from deb.sury.org');
    for (const pattern of [SECURITY_PATTERN, ...SOFTWARE_PATTERNS])
      expect(originInWords(pattern)).not.toMatch(/[=$]/);
  });
});

describe('status texts', () => {
  it('a firewall that is off is not an offline server', () => {
    expect(denyListUnread(true, false)).toMatch(/firewall is off/);
    expect(denyListUnread(true, false)).not.toMatch(/offline/);
    expect(denyListUnread(false, true)).toMatch(/offline/);
    expect(denyListUnread(true, true)).toBeNull();
  });
});

describe('every page of an app has the same sidebar', () => {
  it('app pages, the file manager and the editor show the full web-app sidebar', () => {
    const appPages = routes.filter((route) => route.path.includes(':serverId/:webAppId'));
    expect(appPages.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        '/file-manager/:serverId/:webAppId',
        '/cache-control/:serverId/:webAppId',
      ]),
    );
    for (const route of appPages)
      expect(route.sidebar ?? LAYOUT_MENUS[route.layout], route.path).toBe('webApp');
  });
});

describe('server cards show live load, memory and disk', () => {
  it('reads them from the latest report', () => {
    const report = {
      agent_version: '1',
      kernel_version: '6.1',
      os: 'Debian GNU/Linux 12 (bookworm)',
      hostname: 'web-1',
      timezone: 'UTC',
      uptime: 100,
      load: [0.42, 0.3, 0.2] as [number, number, number],
      cpu: { cores: 2, usage: 10 },
      memory: { total: 2 * 1024 ** 3, used: 1024 ** 3, swap_total: 0, swap_used: 0 },
      disk: { total: 20 * 1024 ** 3, used: 5 * 1024 ** 3 },
      network: { rx_bytes: 0, tx_bytes: 0, rx_rate: 0, tx_rate: 0 },
      at: 1,
    };
    expect(liveFigures(report)).toEqual([
      { id: 'load', label: 'Load', value: '0.42 on 2 cores' },
      { id: 'memory', label: 'Memory', value: '50% of 2 GB', gauge: 50 },
      { id: 'disk', label: 'Disk', value: '25% of 20 GB', gauge: 25 },
    ]);
  });
});
