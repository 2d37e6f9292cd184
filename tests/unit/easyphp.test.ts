import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTENSIONS } from '../../features/easyphp/catalogue';
import { confdName, modulesIn } from '../../features/easyphp/modules';
import { extensionName, packageFor, phpExtensionInput } from '../../features/easyphp/resource';

describe('EasyPHP', () => {
  it('takes only the ini names phpenmod uses', () => {
    for (const good of ['calendar', 'pdo_mysql', 'sysvshm', 'opcache'])
      expect(extensionName.safeParse(good).success, good).toBe(true);
    for (const bad of ['../x', 'Calendar', 'a', '1gd', 'gd;rm', 'gd x', '-s', 'a'.repeat(33)])
      expect(extensionName.safeParse(bad).success, bad).toBe(false);
  });

  it('seeds a valid catalogue, one row per name', () => {
    for (const seed of DEFAULT_EXTENSIONS)
      expect(phpExtensionInput.safeParse(seed).success, seed.name).toBe(true);
    const names = DEFAULT_EXTENSIONS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("names a version's package", () => {
    expect(packageFor('php{version}-mysql', '8.2')).toBe('php8.2-mysql');
    expect(packageFor('php-imagick', '8.2')).toBe('php-imagick');
  });

  it('reads the extension a conf.d entry enables', () => {
    expect(confdName('20-calendar.ini')).toBe('calendar');
    expect(confdName('10-opcache.ini')).toBe('opcache');
    expect(confdName('calendar.ini')).toBeNull();
    expect(confdName('20-calendar.ini.dpkg-old')).toBeNull();
    expect(confdName('99-Custom.ini')).toBeNull();
  });

  it("reads php-fpm -m's modules as ini names", () => {
    const listed = modulesIn(
      '[PHP Modules]\ncalendar\nCore\npdo_mysql\nZend OPcache\n\n[Zend Modules]\nZend OPcache\n',
    );
    expect([...listed].sort()).toEqual(['calendar', 'core', 'opcache', 'pdo_mysql']);
  });
});
