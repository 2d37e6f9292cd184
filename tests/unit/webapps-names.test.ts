import { describe, expect, it } from 'vitest';
import { domainList, phpSettings, toAsciiDomain, webRoot } from '../../features/webapps/names';

/** The allowlists of what reaches nginx, Apache and PHP-FPM files from a web app's fields. */
describe('web app names', () => {
  it('turns domains into lower-case punycode and refuses anything of nginx syntax', () => {
    expect(toAsciiDomain('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(toAsciiDomain(' www.Shop.example. ')).toBe('www.shop.example');
    for (const bad of [
      'a;b.com',
      'a b.com',
      'a{b}.com',
      'a/b.com',
      'a\\b.com',
      'a$b.com',
      '*.example.com',
      'example.com:80',
      'localhost',
      '1.2.3.4',
      '-a.example',
      'a-.example',
      'a..example',
      'a_b.example',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(127)}com`,
      "a'b.example",
      'a"b.example',
      'a\nb.example',
      '',
    ])
      expect(toAsciiDomain(bad), JSON.stringify(bad)).toBeNull();
  });

  it('keeps a domain list free of repeats, the primary first', () => {
    expect(domainList.parse(['B.example', 'a.example'])).toEqual(['b.example', 'a.example']);
    expect(domainList.safeParse(['a.example', 'A.example']).success).toBe(false);
    expect(domainList.safeParse([]).success).toBe(false);
  });

  it('confines the document root to a plain folder of the app', () => {
    for (const ok of ['public', '.', 'web/public', 'dist-1.2'])
      expect(webRoot.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['/etc', '..', 'public/../..', 'a b', 'a;b', '', '.hidden', 'a//b'])
      expect(webRoot.safeParse(bad).success, bad).toBe(false);
  });

  it('takes PHP settings only in php.ini shapes', () => {
    expect(phpSettings.parse({})).toMatchObject({ memory_limit: '256M', max_children: 8 });
    expect(phpSettings.safeParse({ memory_limit: '1G' }).success).toBe(true);
    for (const bad of [
      { memory_limit: '1 G' },
      { memory_limit: '256M\nphp_admin_value[open_basedir]=/' },
      { disable_functions: 'exec;system' },
      { timezone: 'Europe/Berlin"' },
      { max_children: 0 },
    ])
      expect(phpSettings.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
