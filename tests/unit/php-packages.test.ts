import { describe, expect, it } from 'vitest';
import { installArgv, parsePolicy } from '../../features/webapps/phpPackages';

/** apt-cache policy as Debian 12 prints it: installed from Debian, absent, and from Sury. */
const POLICY = `php8.2-fpm:
  Installed: 8.2.36-1~deb12u1
  Candidate: 8.2.36-1~deb12u1
  Version table:
 *** 8.2.36-1~deb12u1 500
        500 http://deb.debian.org/debian-security bookworm-security/main amd64 Packages
        100 /var/lib/dpkg/status
     8.2.32-1~deb12u1 500
        500 http://deb.debian.org/debian bookworm/main amd64 Packages
php8.3-fpm:
  Installed: (none)
  Candidate: (none)
  Version table:
php8.4-fpm:
  Installed: (none)
  Candidate: 8.4.14-1+0~20251024.38+debian12~1.gbp5d1e35
  Version table:
     8.4.14-1+0~20251024.38+debian12~1.gbp5d1e35 500
        500 https://packages.sury.org/php bookworm/main amd64 Packages
php7.4-fpm:
  Installed: 7.4.33-1+deb11u5
  Candidate: 7.4.33-1+deb11u5
  Version table:
 *** 7.4.33-1+deb11u5 100
        100 /var/lib/dpkg/status
`;

describe('PHP packages from apt', () => {
  it('reads installed, candidate and where the candidate comes from', () => {
    const policy = parsePolicy(POLICY);
    expect(policy.get('php8.2-fpm')).toEqual({
      installed: '8.2.36-1~deb12u1',
      candidate: '8.2.36-1~deb12u1',
      source: 'debian',
    });
    expect(policy.get('php8.3-fpm')).toEqual({ installed: null, candidate: null, source: null });
    expect(policy.get('php8.4-fpm')).toMatchObject({ installed: null, source: 'sury' });
    // Installed from a source the server no longer has: nothing to install it from.
    expect(policy.get('php7.4-fpm')).toMatchObject({ installed: '7.4.33-1+deb11u5', source: null });
  });

  it('installs a version by its own packages, never the php metapackage, keeping config files', () => {
    const argv = installArgv('8.3');
    expect(argv).toEqual([
      'install',
      '-y',
      '--no-install-recommends',
      '-o',
      'Dpkg::Options::=--force-confold',
      'php8.3-fpm',
      'php8.3-cli',
    ]);
    expect(argv).not.toContain('php');
  });
});
