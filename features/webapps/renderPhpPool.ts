/**
 * The PHP-FPM pools of web apps, as pure functions of the app's spec and its user's home: the
 * app's own pool and the guard that takes Debian's stock socket. Every value comes from an
 * allowlist (names.ts), so none can end a directive. research/hosting.md 1.2.
 */
import { PREFIX, appDir, socketPath } from './appPaths';
import type { PhpSettings } from './names';
import type { AppSpec } from './resource';

const WARNING = '; Written by Stackdeck: changes here are replaced. Use the panel.\n';

/**
 * The app's PHP-FPM pool: its own user, socket (reachable by the web server's group only),
 * open_basedir on its directory, tmp and its git releases (PHP resolves the folder's symlink
 * to a release: a deploy's new release is allowed before the realpath cache sees the switch),
 * and the settings as php_admin_value so the app's own code cannot raise them.
 */
export function renderPool(spec: AppSpec, home: string, version: string): string {
  const s: PhpSettings = spec.php_settings;
  const dir = appDir(home, spec.name);
  const tmp = `${home}/tmp`;
  return `${WARNING}[${PREFIX}${spec.name}]
user = ${spec.user}
group = ${spec.user}
listen = ${socketPath(version, spec.name)}
listen.owner = ${spec.user}
listen.group = www-data
listen.mode = 0660
pm = ondemand
pm.max_children = ${s.max_children}
pm.process_idle_timeout = 10s
pm.max_requests = 500
chdir = /
php_admin_value[open_basedir] = ${dir}/:${tmp}/:/usr/share/php/:/dev/urandom:${home}/apps/.releases/${spec.name}/
php_admin_value[upload_tmp_dir] = ${tmp}
php_admin_value[session.save_path] = ${tmp}
php_admin_value[sys_temp_dir] = ${tmp}
php_admin_value[error_log] = ${home}/logs/php/${spec.name}.error.log
php_admin_flag[log_errors] = on
php_admin_value[disable_functions] = ${s.disable_functions}
php_admin_value[memory_limit] = ${s.memory_limit}
php_admin_value[upload_max_filesize] = ${s.upload_max_filesize}
php_admin_value[post_max_size] = ${s.post_max_size}
php_admin_value[max_execution_time] = ${s.max_execution_time}
php_admin_value[max_input_time] = ${s.max_input_time}
php_admin_value[max_input_vars] = ${s.max_input_vars}
php_admin_value[date.timezone] = ${s.timezone}
env[PATH] = /usr/local/bin:/usr/bin:/bin
env[TMPDIR] = ${tmp}
`;
}

/**
 * What answers on Debian's default PHP socket once the stock pool is set aside: a pool of
 * `nobody` that runs no script at all. Whatever still points there (Debian's Apache handler, an
 * old site) gets an error instead of PHP as www-data without open_basedir; and a version keeps
 * a pool when its last app goes.
 */
export function renderGuardPool(version: string): string {
  return `${WARNING}[stackdeck_guard]
user = nobody
group = nogroup
listen = /run/php/php${version}-fpm.sock
listen.owner = www-data
listen.group = www-data
listen.mode = 0660
pm = ondemand
pm.max_children = 1
pm.process_idle_timeout = 10s
security.limit_extensions = .stackdeck-none
php_admin_value[open_basedir] = /nonexistent
`;
}
