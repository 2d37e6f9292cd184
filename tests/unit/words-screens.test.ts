import { describe, expect, it } from 'vitest';
import { originInWords } from '../../features/autoupdates/originWords';
import { SECURITY_PATTERN, SOFTWARE_PATTERNS } from '../../features/autoupdates/aptconf';
import { denyListUnread } from '../../features/firewall/statusWords';
import { LAYOUT_MENUS } from '../../src/layouts/layoutMenus';
import { fitDomain } from '../../src/pages/server/chartDomain';
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
