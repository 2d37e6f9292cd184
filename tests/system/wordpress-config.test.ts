import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { phpString, rewireConfig, wpConfig } from '../../features/wordpress/config';

const salts = (c: string) => Array.from({ length: 8 }, (_, i) => `${c}${i}`.padEnd(64, c));
const base = {
  db_name: 'wp_blog',
  db_user: 'wp_blog',
  db_password: `it's a \\ pass`,
  table_prefix: 'wp_ab12c_',
  salts: salts('a'),
};

/** Reads the defines back with PHP itself, as WordPress would (PHP: a system-test host package). */
function definesOf(config: string): Record<string, string> {
  const body = config.replace("require_once ABSPATH . 'wp-settings.php';", '');
  const php = `${body}\necho json_encode(['n'=>DB_NAME,'u'=>DB_USER,'p'=>DB_PASSWORD,'k'=>AUTH_KEY,'s'=>NONCE_SALT,'t'=>$table_prefix]);`;
  return JSON.parse(execFileSync('php', ['-r', php.replace(/^<\?php\n/, '')]).toString());
}

describe('wp-config.php', () => {
  it('quotes any one-line text for PHP', () => {
    expect(phpString(`a'b\\c`)).toBe(`'a\\'b\\\\c'`);
  });

  it('is read back by PHP with the values given', () => {
    expect(definesOf(wpConfig(base))).toEqual({
      n: 'wp_blog',
      u: 'wp_blog',
      p: `it's a \\ pass`,
      k: base.salts[0],
      s: base.salts[7],
      t: 'wp_ab12c_',
    });
  });

  it('a clone gets its own database, account and keys; the rest stays', () => {
    const next = rewireConfig(wpConfig(base), {
      databases: [{ from: 'wp_blog', to: 'cl_copy' }],
      db_user: 'cl_copy',
      db_password: 'another "pass"',
      salts: salts('b'),
    });
    expect(next).not.toBeNull();
    expect(definesOf(next!)).toEqual({
      n: 'cl_copy',
      u: 'cl_copy',
      p: 'another "pass"',
      k: salts('b')[0],
      s: salts('b')[7],
      t: 'wp_ab12c_',
    });
  });

  it('takes the double-quoted defines of a hand-written config, and refuses one without them', () => {
    const hand = `<?php\ndefine( "DB_NAME", "old" );\ndefine("DB_USER","u");\ndefine('DB_PASSWORD', 'p');\n`;
    const next = rewireConfig(hand, {
      databases: [{ from: 'old', to: 'new' }],
      db_user: 'nu',
      db_password: 'np',
      salts: salts('c'),
    })!;
    expect(next).toContain("define('DB_NAME', 'new')");
    expect(next).toContain("define('DB_USER', 'nu')");
    expect(
      rewireConfig('<?php\n', { databases: [], db_user: 'x', db_password: 'y', salts: [] }),
    ).toBeNull();
  });
});
