import { describe, expect, it } from 'vitest';
import { appReleaseInput } from '../../features/releases/resource';
import { downloadUrl, fileNameOf, mirrorProblem, urlProblem } from '../../features/releases/urls';

describe('release addresses', () => {
  it('takes https and http, a loopback mirror included', () => {
    expect(urlProblem('https://wordpress.org/wordpress-6.4.3.tar.gz')).toBeNull();
    expect(urlProblem('http://127.0.0.1:8080/wordpress/x.tar.gz')).toBeNull();
    expect(urlProblem('http://localhost/x.zip')).toBeNull();
  });
  it('refuses other schemes, credentials, fragments and non-addresses', () => {
    expect(urlProblem('ftp://example.org/x.tar.gz')).toMatch(/https/);
    expect(urlProblem('file:///etc/passwd')).toMatch(/https/);
    expect(urlProblem('https://u:p@example.org/x.zip')).toMatch(/password/);
    expect(urlProblem('https://example.org/x.zip#frag')).toMatch(/fragment/);
    expect(urlProblem('wordpress.tar.gz')).toMatch(/full address/);
  });
  it('maps a release to <mirror>/<app>/<file name> when a mirror is set', () => {
    const r = { app: 'wordpress', url: 'https://wordpress.org/wordpress-6.4.3.tar.gz?x=1' };
    expect(downloadUrl(r, null)).toBe(r.url);
    expect(downloadUrl(r, 'http://127.0.0.1:8080/mirror/')).toBe(
      'http://127.0.0.1:8080/mirror/wordpress/wordpress-6.4.3.tar.gz',
    );
    expect(fileNameOf('https://example.org/')).toBeNull();
    expect(fileNameOf('https://example.org/a/%2e%2e')).toBeNull();
  });
  it('takes a mirror base like a release URL, without a query', () => {
    expect(mirrorProblem('http://127.0.0.1:8080/mirror/')).toBeNull();
    expect(mirrorProblem('https://mirror.example.org')).toBeNull();
    expect(mirrorProblem('https://mirror.example.org/?token=1')).toMatch(/query/);
    expect(mirrorProblem('https://u:p@mirror.example.org/')).toMatch(/password/);
    expect(mirrorProblem('ftp://mirror.example.org/')).toMatch(/https/);
  });
  it('validates the catalogue input: apps, hashes, formats', () => {
    const ok = appReleaseInput.safeParse({
      app: 'nextcloud',
      version: '28.0.1',
      url: 'https://download.nextcloud.com/server/releases/nextcloud-28.0.1.tar.bz2',
      sha256: 'F'.repeat(64),
      format: 'tar.bz2',
    });
    expect(ok.success && ok.data.sha256).toBe('f'.repeat(64));
    for (const bad of [
      { app: 'drupal' },
      { sha256: 'abc' },
      { format: 'rar' },
      { version: '../x' },
    ])
      expect(
        appReleaseInput.safeParse({
          app: 'joomla',
          version: '5.0',
          url: 'https://example.org/j.zip',
          sha256: '0'.repeat(64),
          format: 'zip',
          ...bad,
        }).success,
      ).toBe(false);
  });
});
