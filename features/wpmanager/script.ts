/**
 * The one-run PHP script of the WordPress manager: written as the site's user next to the web
 * root, run with PHP's CLI as that user, deleted after. It loads the site's wp-load.php and
 * calls WordPress's own API; its input (passwords too) comes as JSON on standard input, its
 * answer is the last line of its output, JSON: `{ok: ...}` or `{error, code, field}`.
 *
 * No HTTP request leaves during a run (pre_http_request answers an error: a plugin's
 * activation hook may phone home), and the site's maintenance mode does not stop the run.
 */
export const MANAGE_SCRIPT = String.raw`<?php
// Written by Stackdeck for one run, as the site's user, and deleted after it.
$in = json_decode(stream_get_contents(STDIN), true);
if (!is_array($in)) { fwrite(STDERR, "no input\n"); exit(2); }
$_SERVER['HTTP_HOST'] = 'localhost';
$_SERVER['SERVER_NAME'] = 'localhost';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
$GLOBALS['wp_filter'] = [
  'pre_http_request' => [10 => [[
    'function' => function () { return new WP_Error('stackdeck', 'No HTTP from the WordPress manager'); },
    'accepted_args' => 0,
  ]]],
  'enable_maintenance_mode' => [10 => [[
    'function' => function () { return false; },
    'accepted_args' => 0,
  ]]],
];
function sd_out($value) { echo "\n" . json_encode(['ok' => $value]) . "\n"; exit(0); }
function sd_fail($message, $code = 'invalid', $field = null) {
  echo "\n" . json_encode(['error' => $message, 'code' => $code, 'field' => $field]) . "\n";
  exit(0);
}
require $in['root'] . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/admin.php';
$a = $in['input'];

function sd_config_file() {
  if (file_exists(ABSPATH . 'wp-config.php')) return ABSPATH . 'wp-config.php';
  return dirname(ABSPATH) . '/wp-config.php';
}
function sd_general() {
  return [
    'title' => (string) get_option('blogname'),
    'url' => (string) get_option('siteurl'),
    'admin_email' => (string) get_option('admin_email'),
    'public' => (string) get_option('blog_public') !== '0',
    'debug' => defined('WP_DEBUG') && WP_DEBUG,
    'maintenance' => file_exists(ABSPATH . '.maintenance'),
  ];
}
// WP_DEBUG as written in wp-config.php: that one define rewritten, or added before the
// "stop editing" line or the require of wp-settings.php.
function sd_set_debug($on) {
  $file = sd_config_file();
  $text = file_get_contents($file);
  $line = "define('WP_DEBUG', " . ($on ? 'true' : 'false') . ');';
  $pattern = '/define\(\s*[\'"]WP_DEBUG[\'"]\s*,\s*[^)]*\)\s*;/';
  if (preg_match($pattern, $text)) {
    $text = preg_replace($pattern, $line, $text, 1);
  } elseif (preg_match('/^.*(stop editing|require_once\s+ABSPATH).*$/mi', $text, $m, PREG_OFFSET_CAPTURE)) {
    $text = substr($text, 0, $m[0][1]) . $line . "\n" . substr($text, $m[0][1]);
  } else {
    sd_fail('wp-config.php has no WP_DEBUG line and no place to add one', 'failed', 'value');
  }
  if (file_put_contents($file, $text) === false) sd_fail('wp-config.php could not be written', 'failed');
}
function sd_user($u) {
  return [
    'id' => (int) $u->ID,
    'login' => (string) $u->user_login,
    'email' => (string) $u->user_email,
    'roles' => array_values((array) $u->roles),
    'registered' => (string) $u->user_registered,
  ];
}
function sd_roles() {
  $out = [];
  foreach (wp_roles()->roles as $name => $role) $out[] = ['name' => $name, 'label' => translate_user_role($role['name'])];
  return $out;
}
function sd_existing_user($id) {
  $u = get_userdata((int) $id);
  if (!$u) sd_fail("No user #$id on this site", 'not_found');
  return $u;
}
function sd_admins() { return get_users(['role' => 'administrator', 'fields' => 'ID']); }
function sd_plugins() {
  $out = [];
  foreach (get_plugins() as $file => $p) {
    $out[] = [
      'plugin' => (string) $file,
      'name' => (string) $p['Name'],
      'version' => (string) $p['Version'],
      'description' => wp_strip_all_tags((string) $p['Description']),
      'active' => is_plugin_active($file),
    ];
  }
  return $out;
}
function sd_known_plugin($file) {
  if (!array_key_exists($file, get_plugins())) sd_fail("No plugin $file on this site", 'not_found', 'plugin');
}
function sd_error($e, $field = null) {
  sd_fail($e->get_error_message(), 'invalid', $field);
}

switch ($in['action']) {
  case 'general.read':
    sd_out(['general' => sd_general()]);
  case 'general.set':
    $v = $a['value'];
    switch ($a['setting']) {
      case 'title': update_option('blogname', $v); break;
      case 'admin_email': update_option('admin_email', $v); break;
      case 'public': update_option('blog_public', $v ? '1' : '0'); break;
      case 'url': update_option('siteurl', $v); update_option('home', $v); break;
      case 'debug': sd_set_debug($v); break;
      case 'maintenance':
        if ($v) {
          if (file_put_contents(ABSPATH . '.maintenance', '<?php $upgrading = time(); ?>') === false)
            sd_fail('The .maintenance file could not be written', 'failed');
        } elseif (file_exists(ABSPATH . '.maintenance')) {
          unlink(ABSPATH . '.maintenance');
        }
        break;
    }
    $g = sd_general();
    if ($a['setting'] === 'debug') $g['debug'] = (bool) $v; // the define was read before the change
    sd_out(['general' => $g]);
  case 'users.list':
    sd_out(['users' => array_map('sd_user', get_users(['orderby' => 'ID'])), 'roles' => sd_roles()]);
  case 'users.create':
    if (!wp_roles()->is_role($a['role'])) sd_fail("No role {$a['role']} on this site", 'invalid', 'role');
    if (username_exists($a['login'])) sd_fail('A user has this login already', 'conflict', 'login');
    if (email_exists($a['email'])) sd_fail('A user has this mail address already', 'conflict', 'email');
    $id = wp_insert_user(wp_slash([
      'user_login' => $a['login'], 'user_email' => $a['email'],
      'user_pass' => $a['password'], 'role' => $a['role'],
    ]));
    if (is_wp_error($id)) sd_error($id);
    sd_out(['user' => sd_user(get_userdata($id))]);
  case 'users.change':
    $u = sd_existing_user($a['id']);
    if (isset($a['role'])) {
      if (!wp_roles()->is_role($a['role'])) sd_fail("No role {$a['role']} on this site", 'invalid', 'role');
      if (in_array('administrator', $u->roles, true) && $a['role'] !== 'administrator' && count(sd_admins()) < 2)
        sd_fail('The site needs an administrator: this is the last one', 'conflict', 'role');
      $r = wp_update_user(['ID' => $u->ID, 'role' => $a['role']]);
      if (is_wp_error($r)) sd_error($r, 'role');
    }
    if (isset($a['password'])) wp_set_password($a['password'], $u->ID);
    clean_user_cache($u->ID);
    sd_out(['user' => sd_user(get_userdata($u->ID))]);
  case 'users.delete':
    $u = sd_existing_user($a['id']);
    $others = array_values(array_filter(sd_admins(), function ($id) use ($u) { return (int) $id !== (int) $u->ID; }));
    if (!$others) sd_fail('The site needs an administrator: this is the last one', 'conflict');
    if (!wp_delete_user($u->ID, (int) $others[0])) sd_fail('WordPress did not delete the user', 'failed');
    sd_out(['deleted' => (int) $u->ID]);
  case 'plugins.list':
    sd_out(['plugins' => sd_plugins()]);
  case 'plugins.activate':
    sd_known_plugin($a['plugin']);
    ob_start();
    $r = activate_plugin($a['plugin']);
    ob_end_clean();
    if (is_wp_error($r)) sd_error($r, 'plugin');
    sd_out(['plugins' => sd_plugins()]);
  case 'plugins.deactivate':
    sd_known_plugin($a['plugin']);
    deactivate_plugins([$a['plugin']]);
    sd_out(['plugins' => sd_plugins()]);
  case 'plugins.delete':
    sd_known_plugin($a['plugin']);
    if (is_plugin_active($a['plugin'])) sd_fail('Deactivate the plugin before deleting it', 'conflict');
    ob_start();
    $r = delete_plugins([$a['plugin']]);
    ob_end_clean();
    if (is_wp_error($r)) sd_error($r, 'plugin');
    if ($r !== true) sd_fail('WordPress did not delete the plugin', 'failed', 'plugin');
    wp_clean_plugins_cache(false);
    sd_out(['plugins' => sd_plugins()]);
}
sd_fail('Unknown action', 'invalid');
`;
