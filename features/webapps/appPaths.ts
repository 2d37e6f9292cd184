/**
 * Where a web app's files and folders are, as pure functions of its name, its user's home and
 * its PHP version: the paths the renderers (render*.ts) write into and the agent writes to.
 */
import type { AppSpec } from './resource';

/** The panel's files carry this prefix, so the user's own never clash with them. */
export const PREFIX = 'stackdeck-';
/** The port Apache listens on, on loopback only, behind nginx. */
export const APACHE_PORT = 8080;
/** Where Let's Encrypt's HTTP-01 answers are served from, for every app. */
export const ACME_ROOT = '/var/lib/stackdeck/acme';
/** The user's own nginx additions per app: included, never written by the panel. */
export const SNIPPETS_DIR = '/etc/stackdeck/nginx';

export const appDir = (home: string, name: string) => `${home}/apps/${name}`;
export const docRoot = (home: string, spec: Pick<AppSpec, 'name' | 'web_root'>) =>
  spec.web_root === '.' ? appDir(home, spec.name) : `${appDir(home, spec.name)}/${spec.web_root}`;
export const poolPath = (version: string, name: string) =>
  `/etc/php/${version}/fpm/pool.d/${PREFIX}${name}.conf`;
export const socketPath = (version: string, name: string) =>
  `/run/php/php${version}-fpm-${PREFIX}${name}.sock`;
export const nginxPath = (name: string) => `/etc/nginx/conf.d/${PREFIX}${name}.conf`;
export const apachePath = (name: string) => `/etc/apache2/sites-enabled/${PREFIX}${name}.conf`;
export const snippetsDir = (name: string) => `${SNIPPETS_DIR}/${name}`;
/** An app's certificate and key as nginx reads them (root's, 0600, in a 0700 folder). */
export const SSL_DIR = '/etc/stackdeck/ssl';
export const sslDir = (name: string) => `${SSL_DIR}/app-${name}`;
/** certbot's configuration, work and log folders (its lineage of an app: `app-<name>`). */
export const CERTBOT_DIR = '/var/lib/stackdeck/certbot';
/** Every file certbot keeps of an app's certificate (removed with the certificate or the app). */
export const certbotLineage = (name: string) => [
  `${CERTBOT_DIR}/config/live/app-${name}`,
  `${CERTBOT_DIR}/config/archive/app-${name}`,
  `${CERTBOT_DIR}/config/renewal/app-${name}.conf`,
];
/** Where nginx keeps an app's cached pages (root's; purged by emptying it). */
export const CACHE_DIR = '/var/cache/nginx/stackdeck';
export const cacheDir = (name: string) => `${CACHE_DIR}/${name}`;

/** Debian's stock pool of a version (runs as www-data, which can read every app). */
export const stockPoolPath = (version: string) => `/etc/php/${version}/fpm/pool.d/www.conf`;
/** The guard that takes the stock pool's socket (no app name can hold an underscore). */
export const guardPoolPath = (version: string) =>
  `/etc/php/${version}/fpm/pool.d/stackdeck_guard.conf`;

export const LOGROTATE_PATH = '/etc/logrotate.d/stackdeck-apps';
