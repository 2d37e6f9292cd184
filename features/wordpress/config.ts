/**
 * The files the WordPress installer writes (hosting research 2.1): wp-config.php, and the
 * one-run PHP script that calls WordPress's own wp_install(). Pure: the agent writes them, the
 * unit tests read them.
 */

/** A key or salt: 64 characters that need no escaping in a PHP single-quoted string. */
export const SALT = /^[A-Za-z0-9!@#%^&*()\-_=+[\]{}<>~.,;:|/?]{64}$/;
/** A random table prefix per site, so a guessed `wp_` is no help to an injection. */
export const TABLE_PREFIX = /^wp_[a-z0-9]{5}_$/;

/** The eight keys and salts of wp-config.php, in this order. */
export const SALT_NAMES = [
  'AUTH_KEY',
  'SECURE_AUTH_KEY',
  'LOGGED_IN_KEY',
  'NONCE_KEY',
  'AUTH_SALT',
  'SECURE_AUTH_SALT',
  'LOGGED_IN_SALT',
  'NONCE_SALT',
] as const;

/** A PHP single-quoted string literal of any one-line text. */
export const phpString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface WpConfig {
  db_name: string;
  db_user: string;
  db_password: string;
  table_prefix: string;
  salts: readonly string[];
}

export function wpConfig(c: WpConfig): string {
  const define = (name: string, value: string) =>
    `define(${phpString(name)}, ${phpString(value)});`;
  return [
    '<?php',
    '// Written by Stackdeck when WordPress was installed.',
    define('DB_NAME', c.db_name),
    define('DB_USER', c.db_user),
    define('DB_PASSWORD', c.db_password),
    define('DB_HOST', 'localhost'),
    define('DB_CHARSET', 'utf8mb4'),
    define('DB_COLLATE', ''),
    ...SALT_NAMES.map((name, i) => define(name, c.salts[i] ?? '')),
    `$table_prefix = ${phpString(c.table_prefix)};`,
    "define('WP_DEBUG', false);",
    "// The files are the app user's, as PHP runs: updates need no FTP credentials.",
    "define('FS_METHOD', 'direct');",
    "if (isset($_SERVER['HTTP_X_FORWARDED_PROTO']) && $_SERVER['HTTP_X_FORWARDED_PROTO'] === 'https') {",
    "    $_SERVER['HTTPS'] = 'on';",
    '}',
    "if (!defined('ABSPATH')) {",
    "    define('ABSPATH', __DIR__ . '/');",
    '}',
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  ].join('\n');
}

/**
 * The installer run with PHP's CLI as the app's user; its input (title, admin, password) comes
 * as JSON on standard input. No HTTP request leaves during the install (WordPress would ask the
 * site itself whether pretty permalinks work; nginx sends every path to index.php, so they do),
 * and no mail (the panel shows the login).
 */
export const INSTALL_SCRIPT = `<?php
// Written by Stackdeck for one run, as the site's user, and deleted after it.
$in = json_decode(stream_get_contents(STDIN), true);
if (!is_array($in)) { fwrite(STDERR, "no input\\n"); exit(2); }
$url = parse_url($in['url']);
$_SERVER['HTTP_HOST'] = $url['host'];
$_SERVER['SERVER_NAME'] = $url['host'];
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
if ($url['scheme'] === 'https') { $_SERVER['HTTPS'] = 'on'; }
define('WP_INSTALLING', true);
$GLOBALS['wp_filter'] = ['pre_http_request' => [10 => [[
  'function' => function () { return new WP_Error('stackdeck_install', 'No HTTP during the install'); },
  'accepted_args' => 0,
]]]];
function wp_new_blog_notification($blog_title, $blog_url, $user_id, $password) {}
require $in['root'] . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
if (is_blog_installed()) { fwrite(STDERR, "WordPress is installed in this database already\\n"); exit(3); }
$result = wp_install($in['title'], $in['user'], $in['email'], (bool) $in['public'], '', wp_slash($in['password']), '');
if (is_wp_error($result)) { fwrite(STDERR, $result->get_error_message() . "\\n"); exit(4); }
update_option('siteurl', $in['url']);
update_option('home', $in['url']);
$GLOBALS['wp_rewrite']->set_permalink_structure('/%postname%/');
flush_rewrite_rules(false);
echo json_encode(['user_id' => (int) $result['user_id'], 'version' => $GLOBALS['wp_version']]);
`;

/** What a clone changes in its copy of wp-config.php: its own database, account and keys. */
export interface Rewire {
  /** The source's database names and the clone's. */
  databases: readonly { from: string; to: string }[];
  db_user: string;
  db_password: string;
  salts: readonly string[];
}

/** `define( 'NAME', '...' )` or with double quotes, as WordPress's sample and most sites write it. */
const defineOf = (name: string) =>
  new RegExp(`define\\(\\s*(['"])${name}\\1\\s*,\\s*(['"])((?:\\\\.|(?!\\2).)*)\\2\\s*\\)`, 'g');

/**
 * The clone's wp-config.php: DB_NAME moved to the clone's database, DB_USER and DB_PASSWORD to
 * its account, the eight keys and salts new (the source's sessions do not open the clone), the
 * rest as the source has it. Null when a DB_NAME, DB_USER or DB_PASSWORD line is missing.
 */
export function rewireConfig(text: string, r: Rewire): string | null {
  let out = text;
  const set = (name: string, value: (old: string) => string): boolean => {
    let hit = false;
    out = out.replace(defineOf(name), (_all, _q1, _q2, old: string) => {
      hit = true;
      return `define(${phpString(name)}, ${phpString(value(old.replace(/\\(.)/g, '$1')))})`;
    });
    return hit;
  };
  const named = set('DB_NAME', (old) => r.databases.find((d) => d.from === old)?.to ?? old);
  const user = set('DB_USER', () => r.db_user);
  const password = set('DB_PASSWORD', () => r.db_password);
  SALT_NAMES.forEach((name, i) => set(name, () => r.salts[i] ?? ''));
  return named && user && password ? out : null;
}
