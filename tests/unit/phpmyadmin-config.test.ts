import { describe, expect, it } from 'vitest';
import {
  patchVendorConfig,
  phpString,
  renderConfig,
  renderSsoScript,
  tempAccountExpiry,
  tempAccountName,
} from '../../features/phpmyadmin/config';

const paths = { private: '/home/alice/apps/pma/.stackdeck-pma' };

describe('phpMyAdmin config files', () => {
  it('points the Debian vendor_config.php at the app’s own config and TempDir', () => {
    // As Debian's phpmyadmin 5.2.1 ships libraries/vendor_config.php (abridged).
    const debian = [
      '<?php',
      'return [',
      '    /**',
      '     * Directory where cache files are stored.',
      '     */',
      "    'tempDir' => '/var/lib/phpmyadmin/tmp/',",
      '',
      '    /**',
      '     * Filename of a configuration file.',
      '     */',
      "    'configFile' => '/etc/phpmyadmin/config.inc.php',",
      '',
      "    'versionSuffix' => 'deb1+deb12u1',",
      '];',
      '',
    ].join('\n');
    const patched = patchVendorConfig(debian, paths)!;
    expect(patched).toContain(`'configFile' => '${paths.private}/config.inc.php',`);
    expect(patched).toContain(`'tempDir' => '${paths.private}/tmp/',`);
    expect(patched).not.toContain('/etc/phpmyadmin');
    // The rest of the release's file is kept.
    expect(patched.split('\n').length).toBe(debian.split('\n').length);
    expect(patchVendorConfig('<?php return [];', paths)).toBeNull();
  });

  it('patches the upstream layout too (configFile under ROOT_PATH)', () => {
    const upstream = `<?php\nreturn [\n    'tempDir' => ROOT_PATH . 'tmp' . DIRECTORY_SEPARATOR,\n    'configFile' => ROOT_PATH . 'config.inc.php',\n];\n`;
    expect(patchVendorConfig(upstream, paths)).toContain(
      `'configFile' => '${paths.private}/config.inc.php',`,
    );
  });

  it('writes cookie login with the signon switch, and refuses a weak secret', () => {
    const text = renderConfig(paths, 'ab'.repeat(32));
    expect(text).toContain(`hex2bin('${'ab'.repeat(32)}')`);
    expect(text).toContain("$cfg['Servers'][1]['auth_type'] = 'cookie';");
    expect(text).toContain("isset($_COOKIE['StackdeckSSO'])");
    expect(text).toContain("$cfg['Servers'][1]['SignonSession'] = 'StackdeckSSO';");
    expect(() => renderConfig(paths, 'short')).toThrow();
  });

  it('quotes paths as PHP strings', () => {
    expect(phpString("a'b\\c")).toBe("'a\\'b\\\\c'");
    expect(renderSsoScript(paths)).toContain(`const STACKDECK_SSO_DIR = '${paths.private}/sso';`);
  });

  it('keeps a temporary account’s expiry in its name', () => {
    const name = tempAccountName(1_800_000_000, '0123456789ab');
    expect(name).toMatch(/^sdsso_[0-9a-z]+_0123456789ab$/);
    expect(name.length).toBeLessThanOrEqual(32);
    expect(tempAccountExpiry(name)).toBe(1_800_000_000);
    expect(tempAccountExpiry('shop_app')).toBeNull();
  });
});
