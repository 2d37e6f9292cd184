import { describe, expect, it } from 'vitest';
import {
  SECURITY_PATTERN,
  SOFTWARE_PATTERNS,
  allowedOrigins,
  expand,
  originsText,
  parseAptDump,
  periodicText,
  settingsOf,
} from '../../features/autoupdates/aptconf';

/** Debian 12's stock configuration, as `apt-config dump` prints it. */
const STOCK = [
  'APT::Periodic "";',
  'APT::Periodic::Update-Package-Lists "1";',
  'APT::Periodic::Unattended-Upgrade "1";',
  'Unattended-Upgrade::Origins-Pattern "";',
  'Unattended-Upgrade::Origins-Pattern:: "origin=Debian,codename=${distro_codename},label=Debian";',
  'Unattended-Upgrade::Origins-Pattern:: "origin=Debian,codename=${distro_codename},label=Debian-Security";',
  'Unattended-Upgrade::Origins-Pattern:: "origin=Debian,codename=${distro_codename}-security,label=Debian-Security";',
].join('\n');

describe("apt's view", () => {
  it("reads Debian's stock list as security and point releases", () => {
    const view = parseAptDump(STOCK);
    expect(view.periodic).toBe('1');
    expect(view.origins).toHaveLength(3);
    expect(settingsOf(view)).toEqual({ security_update: true, software_update: true });
  });

  it('reads security only, and everything off when the periodic run is 0 or unset', () => {
    expect(settingsOf({ periodic: '1', origins: [SECURITY_PATTERN] })).toEqual({
      security_update: true,
      software_update: false,
    });
    expect(settingsOf({ periodic: '0', origins: [SECURITY_PATTERN] })).toEqual({
      security_update: false,
      software_update: false,
    });
    expect(parseAptDump('Unattended-Upgrade::Origins-Pattern:: "o=Debian";').periodic).toBe('0');
  });
});

describe('the files', () => {
  it('clear the stock lists and allow what was asked', () => {
    const security = originsText({ security_update: true, software_update: false });
    expect(security).toContain('#clear Unattended-Upgrade::Origins-Pattern;');
    expect(security).toContain(`"${SECURITY_PATTERN}";`);
    expect(security).not.toContain(SOFTWARE_PATTERNS[0]);
    const both = originsText({ security_update: true, software_update: true });
    for (const p of SOFTWARE_PATTERNS) expect(both).toContain(`"${p}";`);
    expect(periodicText({ security_update: false, software_update: false })).toContain(
      'APT::Periodic::Unattended-Upgrade "0";',
    );
  });
});

describe("the dry run's line", () => {
  it('lists the allowed origins, none, or is missing', () => {
    expect(
      allowedOrigins(
        'Starting\nAllowed origins are: o=Debian,n=bookworm, o=Debian,n=bookworm-security\nInitial',
      ),
    ).toEqual(['o=Debian,n=bookworm', 'o=Debian,n=bookworm-security']);
    expect(allowedOrigins('Allowed origins are: \n')).toEqual([]);
    expect(allowedOrigins('Lock could not be acquired')).toBeNull();
    expect(expand([SECURITY_PATTERN], 'bookworm')).toEqual([
      'origin=Debian,codename=bookworm-security,label=Debian-Security',
    ]);
  });
});
