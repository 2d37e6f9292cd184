/**
 * The files pma.configure writes into a phpMyAdmin app, as pure functions (the agent writes
 * them, the unit and system tests read them), and the names the sign-in shares between the
 * panel, the agent and the PHP side.
 */
import { TEMP_USER_PREFIX } from '../databases/api';

/** phpMyAdmin's signon session: never phpMyAdmin's own session name (phpmyadmin#17322). */
export const SSO_SESSION = 'StackdeckSSO';
/** The signon script in the web root. */
export const SSO_SCRIPT = 'stackdeck-sso.php';
/** The app's private folder (outside the web root): config, TempDir, token files. */
export const PRIVATE_DIR = '.stackdeck-pma';
/** A one-time token: 32 random bytes, base64url. */
export const SSO_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/**
 * A temporary account: `sdsso_<expiry, unix seconds in base 36>_<12 hex>`. Its expiry is in its
 * name, so any cleanup (after a restart of the agent too) knows when to drop it, without state.
 */
export const TEMP_ACCOUNT = /^sdsso_([0-9a-z]{6,8})_[0-9a-f]{12}$/;

export const tempAccountName = (expiresAt: number, random: string) =>
  `${TEMP_USER_PREFIX}${Math.ceil(expiresAt).toString(36)}_${random}`;

/** The expiry (unix seconds) of a temporary account, or null for any other name. */
export function tempAccountExpiry(name: string): number | null {
  const m = TEMP_ACCOUNT.exec(name);
  return m ? parseInt(m[1]!, 36) : null;
}

/** A PHP single-quoted string literal. */
export const phpString = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

export interface PmaPaths {
  /** The app's private folder (PRIVATE_DIR inside the app). */
  private: string;
}

export const configPath = (p: PmaPaths) => `${p.private}/config.inc.php`;
export const tempDir = (p: PmaPaths) => `${p.private}/tmp`;
export const tokenDir = (p: PmaPaths) => `${p.private}/sso`;

/**
 * config.inc.php: cookie login for everyone, and signon (the panel's handoff) only while the
 * sign-in cookie is present, as Hestia switches (bin/v-add-sys-pma-sso): a user who signs in
 * with a database password never meets the signon page. `secret` is 32 random bytes in hex.
 */
export function renderConfig(p: PmaPaths, secret: string): string {
  if (!/^[0-9a-f]{64}$/.test(secret)) throw new Error('The blowfish secret is 32 bytes in hex');
  return `<?php
// Written by Stackdeck (pma.configure): phpMyAdmin of this web app. Written again on reconfigure.
declare(strict_types=1);

$cfg['blowfish_secret'] = hex2bin('${secret}');
$cfg['TempDir'] = ${phpString(tempDir(p))};
$cfg['UploadDir'] = '';
$cfg['SaveDir'] = '';
$cfg['VersionCheck'] = false;
$cfg['SendErrorReports'] = 'never';

$cfg['Servers'][1]['host'] = 'localhost';
$cfg['Servers'][1]['compress'] = false;
$cfg['Servers'][1]['AllowNoPassword'] = false;
$cfg['Servers'][1]['AllowRoot'] = false;
$cfg['Servers'][1]['auth_type'] = 'cookie';

// The panel's one-time sign-in: signon only while its session cookie is present.
if (isset($_COOKIE['${SSO_SESSION}']) && is_string($_COOKIE['${SSO_SESSION}']) && $_COOKIE['${SSO_SESSION}'] !== '') {
    $https = (!empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off')
        || (($_SERVER['HTTP_X_FORWARDED_PROTO'] ?? '') === 'https');
    $cfg['Servers'][1]['auth_type'] = 'signon';
    $cfg['Servers'][1]['SignonSession'] = '${SSO_SESSION}';
    $cfg['Servers'][1]['SignonCookieParams'] = [
        'lifetime' => 0, 'path' => '/', 'domain' => '', 'secure' => $https, 'httponly' => true, 'samesite' => 'Lax',
    ];
    $cfg['Servers'][1]['SignonURL'] = '${SSO_SCRIPT}';
    $cfg['Servers'][1]['LogoutURL'] = '${SSO_SCRIPT}?logout=1';
    unset($https);
}
`;
}

/**
 * The app copy's vendor_config.php, pointed at the app's own config and TempDir (Debian's copy
 * reads /etc/phpmyadmin and /var/lib/phpmyadmin, outside the app's open_basedir). Only the
 * two values change; the rest of the file is the release's. Null when the file has no such
 * keys (not phpMyAdmin 5).
 */
export function patchVendorConfig(text: string, p: PmaPaths): string | null {
  const key = (name: string) =>
    new RegExp(`^([ \\t]*'${name}'[ \\t]*=>[ \\t]*)[^\\n]*,[ \\t]*$`, 'm');
  if (!key('configFile').test(text) || !key('tempDir').test(text)) return null;
  return text
    .replace(key('configFile'), (_m, head: string) => `${head}${phpString(configPath(p))},`)
    .replace(key('tempDir'), (_m, head: string) => `${head}${phpString(`${tempDir(p)}/`)},`);
}

/**
 * stackdeck-sso.php, the signon script: takes a token once (the file named by its SHA-256 is
 * claimed by an atomic rename, then deleted), checks its expiry, and hands the temporary
 * account to phpMyAdmin in the signon session. `?logout=1` (phpMyAdmin's LogoutURL) sets a
 * random password on the temporary account (it can change its own; the agent drops it at its
 * expiry) and ends the signon session, so the next visit gets the normal login.
 */
export function renderSsoScript(p: PmaPaths): string {
  return `<?php
// Written by Stackdeck (pma.configure): the panel's one-time phpMyAdmin sign-in.
declare(strict_types=1);

const STACKDECK_SSO_DIR = ${phpString(tokenDir(p))};
const STACKDECK_SSO_SESSION = '${SSO_SESSION}';

header('Cache-Control: no-store');
header('Referrer-Policy: no-referrer');
$https = (!empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off')
    || (($_SERVER['HTTP_X_FORWARDED_PROTO'] ?? '') === 'https');
$cookie = ['lifetime' => 0, 'path' => '/', 'domain' => '', 'secure' => $https, 'httponly' => true, 'samesite' => 'Lax'];

function stackdeck_refuse(string $why): void
{
    http_response_code(403);
    header('Content-Type: text/html; charset=utf-8');
    echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>phpMyAdmin sign-in refused</title></head><body>'
        . '<h1>This sign-in link cannot be used</h1><p>' . htmlspecialchars($why) . '</p>'
        . '<p>Open phpMyAdmin again from the panel for a new link, or <a href="index.php">sign in with a database user and its password</a>.</p>'
        . '</body></html>';
    exit;
}

function stackdeck_end_session(array $cookie): void
{
    if (!isset($_COOKIE[STACKDECK_SSO_SESSION])) {
        return;
    }
    session_set_cookie_params($cookie);
    session_name(STACKDECK_SSO_SESSION);
    if (@session_start()) {
        $user = $_SESSION['PMA_single_signon_user'] ?? '';
        $password = $_SESSION['PMA_single_signon_password'] ?? '';
        if (is_string($user) && preg_match('/^sdsso_[0-9a-z]+_[0-9a-f]{12}$/', $user) && is_string($password)) {
            // The account changes its own password: nobody knows the new one.
            try {
                mysqli_report(MYSQLI_REPORT_OFF);
                $db = @new mysqli('localhost', $user, $password);
                if (!$db->connect_errno) {
                    $db->query("SET PASSWORD = PASSWORD('" . bin2hex(random_bytes(24)) . "')");
                    $db->close();
                }
            } catch (Throwable $e) {
            }
        }
        $_SESSION = [];
        session_destroy();
    }
    setcookie(STACKDECK_SSO_SESSION, '', ['expires' => 1] + array_diff_key($cookie, ['lifetime' => 0]));
}

if (isset($_GET['logout'])) {
    stackdeck_end_session($cookie);
    header('Location: index.php', true, 302);
    exit;
}

$token = $_GET['t'] ?? null;
if ($token === null) {
    // phpMyAdmin sends here when the signon account no longer works: back to the normal login.
    stackdeck_end_session($cookie);
    header('Location: index.php', true, 302);
    exit;
}
if (!is_string($token) || !preg_match('/^[A-Za-z0-9_-]{43}$/', $token)) {
    stackdeck_refuse('The link is incomplete.');
}
$file = STACKDECK_SSO_DIR . '/' . hash('sha256', $token) . '.json';
$claimed = $file . '.used-' . bin2hex(random_bytes(8));
// One use: of two requests racing, only one rename succeeds.
if (!@rename($file, $claimed)) {
    stackdeck_refuse('This sign-in link was used already, or is unknown.');
}
$data = json_decode((string) @file_get_contents($claimed), true);
@unlink($claimed);
if (!is_array($data) || !isset($data['user'], $data['password'], $data['exp'])) {
    stackdeck_refuse('This sign-in link is damaged.');
}
if (time() > (int) $data['exp']) {
    stackdeck_refuse('This sign-in link has expired: links are good for about a minute.');
}

session_set_cookie_params($cookie);
session_name(STACKDECK_SSO_SESSION);
session_start();
session_regenerate_id(true);
$_SESSION = [
    'PMA_single_signon_user' => (string) $data['user'],
    'PMA_single_signon_password' => (string) $data['password'],
    'PMA_single_signon_host' => 'localhost',
    'PMA_single_signon_HMAC_secret' => bin2hex(random_bytes(16)),
];
session_write_close();
header('Location: index.php', true, 302);
`;
}
