/**
 * Roundcube's `stackdeck_sso` plugin (research mail.md s.6, "Roundcube ... with SSO"), as the
 * text the agent writes into the app's plugins/ folder, and the names the panel, the agent and
 * the plugin share. Pure: the agent writes it, the tests run its PHP.
 *
 * The panel mints a token: base64url(JSON {v, app, email, exp, nonce}) "." base64url(HMAC-SHA256
 * over the first part, with the app's own key). The browser posts it as `_sso` to Roundcube.
 * The plugin checks it, uses its nonce up (a file in a 0700 folder: a second post is refused),
 * and signs in as the mailbox: IMAP, SMTP and ManageSieve then authenticate as Dovecot's master
 * user with the mailbox as authzid, on this server's loopback only. The master login is never a
 * global `imap_auth_cid`: a password login stays a password login.
 */

export const PLUGIN = 'stackdeck_sso';
/** The app's private folder (outside the web root, 0700): the settings and the used nonces. */
export const PRIVATE_DIR = '.stackdeck-sso';
/** JSON, not PHP: no opcache shared by other pools ever holds the secrets. */
export const SETTINGS_FILE = 'sso.json';
export const NONCES_DIR = 'nonces';
/** A token is good this long after it is minted. */
export const TOKEN_TTL = 60;
/** How far the panel's clock may run ahead of the server's before a token is refused. */
export const CLOCK_SKEW = 30;
/** The app's signing key: 32 random bytes, base64url. */
export const SSO_KEY = /^[A-Za-z0-9_-]{43}$/;
/** A token's nonce: 16 to 48 random bytes, base64url (also its file name). */
export const SSO_NONCE = /^[A-Za-z0-9_-]{22,64}$/;

/** What the plugin reads from SETTINGS_FILE. */
export interface SsoSettings {
  /** The app's signing key (shared with the panel, which keeps it sealed). */
  key: string;
  /** The panel's id of the app: a token for another app is refused. */
  app: number;
  master_user: string;
  /** Empty while the server has no mail (its master secret). */
  master_pass: string;
}

export const renderSettings = (s: SsoSettings) => `${JSON.stringify(s, null, 2)}\n`;

/**
 * The token's check and the nonce store, without Roundcube (tests run them with php-cli).
 * Every refusal of a bad token says the same words: they tell a forger nothing.
 */
export const TOKEN_PHP = String.raw`<?php
/**
 * Stackdeck's sign-on tokens, as the panel mints them (features/roundcube/ssoPlugin.ts).
 * Written by the Stackdeck agent: changes are replaced.
 */

const STACKDECK_SSO_TTL = ${TOKEN_TTL};
const STACKDECK_SSO_SKEW = ${CLOCK_SKEW};
/** A used nonce is kept this long: by then its token has expired anyway. */
const STACKDECK_SSO_KEEP = 300;
const STACKDECK_SSO_INVALID = 'This sign-in link is not valid: open Roundcube again from the panel';
const STACKDECK_SSO_EXPIRED = 'This sign-in link has expired: open Roundcube again from the panel';
const STACKDECK_SSO_USED = 'This sign-in link was used already: open Roundcube again from the panel';

function stackdeck_sso_b64url($text)
{
    $raw = base64_decode(strtr($text, '-_', '+/'), true);
    return $raw === false ? null : $raw;
}

/** The token's claims for this app, or the words of its refusal. */
function stackdeck_sso_verify($token, $key, $app, $now)
{
    if (!is_string($token) || !preg_match('/^([A-Za-z0-9_-]{16,2000})\.([A-Za-z0-9_-]{43})$/', $token, $m)) {
        return STACKDECK_SSO_INVALID;
    }
    $mac = stackdeck_sso_b64url($m[2]);
    if ($mac === null || !hash_equals(hash_hmac('sha256', $m[1], $key, true), $mac)) {
        return STACKDECK_SSO_INVALID;
    }
    $claims = json_decode((string) stackdeck_sso_b64url($m[1]), true);
    if (!is_array($claims)
        || ($claims['v'] ?? null) !== 1
        || ($claims['app'] ?? null) !== $app
        || !is_int($claims['exp'] ?? null)
        || !is_string($claims['email'] ?? null)
        || !preg_match('/^[a-z0-9._+-]{1,64}@[a-z0-9.-]{1,253}$/', $claims['email'])
        || !is_string($claims['nonce'] ?? null)
        || !preg_match('/^[A-Za-z0-9_-]{22,64}$/', $claims['nonce'])
    ) {
        return STACKDECK_SSO_INVALID;
    }
    if ($claims['exp'] < $now) {
        return STACKDECK_SSO_EXPIRED;
    }
    // No token lives longer than the panel mints them, give or take the clocks.
    if ($claims['exp'] > $now + STACKDECK_SSO_TTL + STACKDECK_SSO_SKEW) {
        return STACKDECK_SSO_INVALID;
    }
    return $claims;
}

/**
 * Uses the nonce up: true the first time, false ever after (the file exists) or when the
 * folder cannot hold it. Nonces older than STACKDECK_SSO_KEEP go first.
 */
function stackdeck_sso_consume($dir, $nonce, $now)
{
    if (!is_dir($dir) && !@mkdir($dir, 0700, true) && !is_dir($dir)) {
        return false;
    }
    foreach (scandir($dir) ?: [] as $name) {
        if ($name[0] === '.') {
            continue;
        }
        $seen = @filemtime($dir . '/' . $name);
        if ($seen !== false && $seen < $now - STACKDECK_SSO_KEEP) {
            @unlink($dir . '/' . $name);
        }
    }
    $file = @fopen($dir . '/' . $nonce, 'x');
    if ($file === false) {
        return false;
    }
    fclose($file);
    return true;
}
`;

/** The plugin itself: Roundcube's hooks (index.php l.90-124, rcube_imap.php:157, rcube_smtp.php:80). */
export const PLUGIN_PHP = String.raw`<?php
/**
 * stackdeck_sso: opens Roundcube signed in as a mailbox, from the Stackdeck panel.
 *
 * The panel posts a short-lived, single-use token as _sso. Once it checks out, the session is
 * the mailbox's, and its IMAP, SMTP and ManageSieve logins use this server's Dovecot master user
 * (on loopback only, where Dovecot accepts it) with the mailbox as authzid. Sessions signed in
 * with a password are left alone. Written by the Stackdeck agent: changes are replaced.
 */

require_once __DIR__ . '/token.php';

class stackdeck_sso extends rcube_plugin
{
    public function init()
    {
        $this->add_hook('startup', [$this, 'startup']);
        $this->add_hook('authenticate', [$this, 'authenticate']);
        $this->add_hook('storage_connect', [$this, 'storage_connect']);
        $this->add_hook('smtp_connect', [$this, 'smtp_connect']);
        $this->add_hook('managesieve_connect', [$this, 'managesieve_connect']);
    }

    /** A post with a token is a login, whatever page it reached. */
    public function startup($args)
    {
        if ($this->token() !== null) {
            $args['task'] = 'login';
            $args['action'] = 'login';
        }
        return $args;
    }

    public function authenticate($args)
    {
        $token = $this->token();
        if ($token === null) {
            unset($_SESSION['stackdeck_sso']);
            return $args;
        }
        // The panel's form comes from another site: no Roundcube form token, no cookie yet.
        $args['cookiecheck'] = false;
        $args['valid'] = false;
        $settings = self::settings();
        if ($settings === null || $settings['master_pass'] === '') {
            $args['error'] = 'Single sign-on is not set up on this Roundcube: ask the panel to open it again';
            return $args;
        }
        $host = rcube_utils::parse_host_uri(rcube_utils::parse_host((string) $args['host']), 143, 993);
        if (!self::local($host[0])) {
            $args['error'] = 'Single sign-on needs the mail of this server (imap_host localhost)';
            return $args;
        }
        $now = time();
        $claims = stackdeck_sso_verify($token, $settings['key'], $settings['app'], $now);
        if (is_string($claims)) {
            $args['error'] = $claims;
            return $args;
        }
        if (!stackdeck_sso_consume(self::dir() . 'nonces', $claims['nonce'], $now)) {
            $args['error'] = STACKDECK_SSO_USED;
            return $args;
        }
        $rcmail = rcmail::get_instance();
        if (!empty($_SESSION['user_id'])) {
            $rcmail->kill_session();
        }
        $_SESSION['stackdeck_sso'] = $claims['email'];
        $args['user'] = $claims['email'];
        // Never used: the hooks below sign in as the master user. Nothing guessable either.
        $args['pass'] = bin2hex(random_bytes(24));
        $args['valid'] = true;
        return $args;
    }

    public function storage_connect($args)
    {
        return $this->as_master($args, $args['user'] ?? '', $args['host'] ?? '', 'auth_cid', 'auth_pw', 'auth_type');
    }

    public function managesieve_connect($args)
    {
        return $this->as_master($args, $args['user'] ?? '', $args['host'] ?? '', 'auth_cid', 'auth_pw', 'auth_type');
    }

    public function smtp_connect($args)
    {
        $host = rcube_utils::parse_host_uri(rcube_utils::parse_host((string) $args['smtp_host']), 587, 465);
        $email = (string) ($_SESSION['stackdeck_sso'] ?? '');
        $master = $this->as_master($args, $email, $host[0], 'smtp_auth_cid', 'smtp_auth_pw', 'smtp_auth_type');
        if ($master !== $args) {
            // The mailbox is the authzid: Postfix then holds the sender to it (sender_login_maps).
            $master['smtp_user'] = $email;
        }
        return $master;
    }

    /**
     * The master login for the signed-in mailbox: only in a session this plugin signed in, for
     * that mailbox, towards this server's loopback.
     */
    private function as_master($args, $user, $host, $cid, $pw, $type)
    {
        $email = $_SESSION['stackdeck_sso'] ?? null;
        if (!is_string($email) || $email === '' || strcasecmp((string) $user, $email) !== 0 || !self::local($host)) {
            return $args;
        }
        $settings = self::settings();
        if ($settings === null || $settings['master_pass'] === '') {
            return $args;
        }
        $args[$cid] = $settings['master_user'];
        $args[$pw] = $settings['master_pass'];
        $args[$type] = 'PLAIN';
        return $args;
    }

    private function token()
    {
        $token = $_POST['_sso'] ?? null;
        return is_string($token) && $token !== '' ? $token : null;
    }

    private static function local($host)
    {
        return in_array(strtolower(trim((string) $host, '[]')), ['localhost', '127.0.0.1', '::1'], true);
    }

    /** The app's private folder: beside Roundcube's own, never under public_html. */
    private static function dir()
    {
        return RCUBE_INSTALL_PATH . '${PRIVATE_DIR}/';
    }

    /** Read for each use, never put in Roundcube's config (nothing of it reaches a page). */
    private static function settings()
    {
        $text = @file_get_contents(self::dir() . '${SETTINGS_FILE}');
        $settings = $text === false ? null : json_decode($text, true);
        if (!is_array($settings)
            || !is_string($settings['key'] ?? null) || strlen($settings['key']) < 32
            || !is_int($settings['app'] ?? null)
            || !is_string($settings['master_user'] ?? null)
            || !is_string($settings['master_pass'] ?? null)
        ) {
            return null;
        }
        return $settings;
    }
}
`;

/**
 * Enables the plugin in a config.inc.php the installer wrote (or its user changed): the text
 * with one line appended, or null when the plugin is named there already.
 */
export function enablePlugin(config: string): string | null {
  if (config.includes(`'${PLUGIN}'`)) return null;
  const line = `$config['plugins'] = array_merge((array) ($config['plugins'] ?? []), ['${PLUGIN}']);`;
  return `${config.replace(/\s*\?>\s*$/, '').trimEnd()}\n// Single sign-on from the Stackdeck panel.\n${line}\n`;
}
