/**
 * The files of a web app, as pure functions of its spec (features/webapps/resource.ts appSpec)
 * and its user's home: the PHP-FPM pool, the nginx vhost, the Apache vhost of the hybrid
 * stack. Every value in them comes from an allowlist (names.ts), so none can end a directive.
 * The recipes are research/hosting.md 1.2–1.4.
 */
import {
  APP_LOG_DIR,
  type CacheSettings,
  type PhpSettings,
  appLogPath,
  regexLiteral,
} from './names';
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
const zoneOf = (name: string) => `stackdeck_${name.replace(/-/g, '_')}`;

/** The http-level line of an app's cache: its folder and zone. */
function cacheZone(name: string): string {
  return `fastcgi_cache_path ${cacheDir(name)} levels=1:2 keys_zone=${zoneOf(name)}:10m max_size=1g inactive=60m use_temp_path=off;\n`;
}

/**
 * The cache rules of the PHP location: POSTs, query strings, the bypass paths and cookies go
 * to PHP; the answer says HIT, MISS or BYPASS in X-Stackdeck-Cache.
 */
function cacheRules(name: string, cache: CacheSettings): string {
  const paths = cache.bypass_paths.map(regexLiteral).join('|');
  const cookies = cache.bypass_cookies.map(regexLiteral).join('|');
  return `    set $stackdeck_skip 0;
    if ($request_method !~ ^(GET|HEAD)$) { set $stackdeck_skip 1; }
    if ($query_string != "") { set $stackdeck_skip 1; }
${paths ? `    if ($request_uri ~* "^(${paths})") { set $stackdeck_skip 1; }\n` : ''}${
    cookies ? `    if ($http_cookie ~* "(${cookies})") { set $stackdeck_skip 1; }\n` : ''
  }`;
}

function cacheDirectives(name: string, cache: CacheSettings): string {
  return `        fastcgi_cache ${zoneOf(name)};
        fastcgi_cache_key "$scheme$request_method$host$request_uri";
        fastcgi_cache_valid 200 301 302 ${cache.ttl_seconds}s;
        fastcgi_cache_bypass $stackdeck_skip;
        fastcgi_no_cache $stackdeck_skip;
        fastcgi_ignore_headers Cache-Control Expires Set-Cookie;
        add_header X-Stackdeck-Cache $upstream_cache_status always;
`;
}

/** The first line of the nginx file: what the panel wrote, read back for the drift check. */
const HEADER = '# stackdeck-app ';

export function header(spec: AppSpec): string {
  const { name, user, stack_type, php_version, domains, web_root } = spec;
  return `${HEADER}${JSON.stringify({ name, user, stack_type, php_version, domains, web_root })}\n`;
}

/** The header of an nginx file of the panel's, or null for any other file. */
export function parseHeader(text: string): Record<string, unknown> | null {
  const first = text.split('\n', 1)[0] ?? '';
  if (!first.startsWith(HEADER)) return null;
  try {
    const value: unknown = JSON.parse(first.slice(HEADER.length));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

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

/** Debian's stock pool of a version (runs as www-data, which can read every app). */
export const stockPoolPath = (version: string) => `/etc/php/${version}/fpm/pool.d/www.conf`;
/** The guard that takes the stock pool's socket (no app name can hold an underscore). */
export const guardPoolPath = (version: string) =>
  `/etc/php/${version}/fpm/pool.d/stackdeck_guard.conf`;

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

const STATIC_FILES =
  'css|js|mjs|map|jpg|jpeg|png|gif|webp|avif|ico|svg|woff|woff2|ttf|eot|otf|mp4|webm|mp3|pdf|txt|xml|zip|gz';

/** nginx's body for a PHP app served by PHP-FPM directly. */
function nativeLocations(spec: AppSpec, version: string): string {
  return `${spec.cache ? `${cacheRules(spec.name, spec.cache)}\n` : ''}    location / {
        try_files $uri $uri/ /index.php?$query_string;
    }

    location ~ [^/]\\.php(/|$) {
        try_files $uri =404;
        fastcgi_split_path_info ^(.+?\\.php)(/.*)$;
        include fastcgi_params;
        fastcgi_param SCRIPT_FILENAME $realpath_root$fastcgi_script_name;
        fastcgi_param DOCUMENT_ROOT $realpath_root;
        fastcgi_param PATH_INFO $fastcgi_path_info;
        fastcgi_pass unix:${socketPath(version, spec.name)};
        fastcgi_read_timeout ${spec.php_settings.max_execution_time + 5}s;
${spec.cache ? cacheDirectives(spec.name, spec.cache) : ''}    }
`;
}

/** nginx in front of Apache: static files straight from disk, everything else to Apache. */
function proxyLocations(): string {
  return `    location ~* \\.(${STATIC_FILES})$ {
        try_files $uri @apache;
        expires 7d;
    }

    location / {
        try_files /nonexistent @apache;
    }

    location @apache {
        proxy_pass http://127.0.0.1:${APACHE_PORT};
        proxy_set_header Host $host;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 300s;
    }
`;
}

/**
 * The http-level line of a Node.js app: `Connection: upgrade` only when the client asks to
 * upgrade (websockets), `close` otherwise, instead of a literal 'upgrade' on every request. The
 * variable is the app's own, so no two files define it and no map of the admin's is changed.
 */
const upgradeVar = (name: string) => `$stackdeck_upgrade_${name.replace(/-/g, '_')}`;
function upgradeMap(name: string): string {
  return `map $http_upgrade ${upgradeVar(name)} {\n    default upgrade;\n    '' close;\n}\n`;
}

/** nginx in front of a Node.js app (research hosting.md 2.4): everything to its port. */
function nodeLocations(name: string, port: number): string {
  return `    location / {
        proxy_pass http://127.0.0.1:${port};
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection ${upgradeVar(name)};
        proxy_set_header Host $host;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 300s;
    }
`;
}

function staticLocations(): string {
  return `    location / {
        try_files $uri $uri/ =404;
    }
`;
}

/**
 * The app's nginx server block. The ACME challenge location and the user's own snippets come
 * first, so neither a redirect nor a rewrite of theirs can hide the challenge from Let's
 * Encrypt; dotfiles (.git, .env, .htaccess) are never served.
 */
export function renderNginx(spec: AppSpec, home: string): string {
  const version = spec.php_version;
  const node = spec.proxy_port;
  const body =
    node !== null
      ? nodeLocations(spec.name, node)
      : version === null
        ? staticLocations()
        : spec.stack_type === 'apache/nginx'
          ? proxyLocations()
          : nativeLocations(spec, version);
  const zone = spec.cache && node === null && version !== null && spec.stack_type === 'nginx';
  const tls = spec.tls;
  // With "force HTTPS", port 80 answers the ACME challenge and redirects everything else.
  const plain = tls?.force_https
    ? serverBlock(spec, home, ['80'], redirectLocations())
    : serverBlock(spec, home, ['80'], body);
  return `${header(spec)}# Written by Stackdeck: changes here are replaced. Add yours in ${snippetsDir(spec.name)}/*.conf
${zone ? cacheZone(spec.name) : ''}${node !== null ? upgradeMap(spec.name) : ''}${plain}${tls ? serverBlock(spec, home, ['443 ssl http2'], body, tlsLines(spec.name)) : ''}`;
}

/** The certificate lines of the app's HTTPS server (its files: sslDir). */
function tlsLines(name: string): string {
  return `    ssl_certificate ${sslDir(name)}/fullchain.pem;
    ssl_certificate_key ${sslDir(name)}/privkey.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:stackdeck_ssl:10m;
    ssl_session_timeout 1d;

`;
}

/** Port 80 of an app with "force HTTPS": everything but the ACME challenge goes to https. */
function redirectLocations(): string {
  return `    location / {
        return 301 https://$host$request_uri;
    }
`;
}

/** One server block of the app: the ACME location and the user's snippets before the body. */
function serverBlock(spec: AppSpec, home: string, ports: string[], body: string, tls = ''): string {
  const version = spec.php_version;
  const listens = ports.map((p) => `    listen ${p};\n    listen [::]:${p};\n`).join('');
  return `server {
${listens}    server_name ${spec.domains.join(' ')};
    root ${docRoot(home, spec)};
    index ${version === null ? 'index.html index.htm' : 'index.php index.html index.htm'};
    client_max_body_size ${spec.php_settings.upload_max_filesize.replace(/([KMG])$/, (u) => u.toLowerCase())};

${tls}    # nginx reads every app (it is in each app's group): a link is followed only to a file of
    # the link's own owner, so one app cannot publish another's files by linking to them.
    disable_symlinks if_not_owner from=$document_root;

    access_log ${appLogPath(spec.name, 'nginx', 'access')};
    error_log ${appLogPath(spec.name, 'nginx', 'error')} warn;

    location ^~ /.well-known/acme-challenge/ {
        root ${ACME_ROOT};
        default_type text/plain;
        try_files $uri =404;
    }

    include ${snippetsDir(spec.name)}/*.conf;

    location ~ /\\.(?!well-known) {
        deny all;
    }

${body}}
`;
}

/**
 * The app's Apache vhost (hybrid stack), on loopback behind nginx. `.htaccess` may rewrite,
 * set headers, protect folders and change options, but not name handlers: FileInfo would let
 * one point SetHandler at another app's FPM socket (php-src#15499), so it is left out and
 * mod_rewrite is allowed by name instead.
 */
export function renderApache(spec: AppSpec, home: string, version: string): string {
  const root = docRoot(home, spec);
  const [primary, ...aliases] = spec.domains;
  return `# Written by Stackdeck: changes here are replaced. Use the panel.
<VirtualHost 127.0.0.1:${APACHE_PORT}>
    ServerName ${primary}
${aliases.length ? `    ServerAlias ${aliases.join(' ')}\n` : ''}    DocumentRoot ${root}
    <Directory ${root}>
        # Absolute, not +/-: Debian's <Directory /> grants FollowSymLinks, which would win.
        Options SymLinksIfOwnerMatch
        AllowOverride AuthConfig Indexes Limit Options=Indexes,MultiViews,SymLinksIfOwnerMatch Nonfatal=Override
        AllowOverrideList RewriteEngine RewriteBase RewriteCond RewriteRule RewriteOptions Redirect RedirectMatch RedirectPermanent ErrorDocument DirectoryIndex Header ExpiresActive ExpiresByType ExpiresDefault
        Require all granted
    </Directory>
    # Every PHP-like name goes to the app's own pool (which runs .php only), never to Debian's
    # stock handler; PHP settings from the request side (mod_rewrite's E=PHP_ADMIN_VALUE) are
    # dropped before FastCGI, so the pool's limits and open_basedir hold.
    <FilesMatch ".+\\.ph(?:ar|p|tml)$">
        SetHandler "proxy:unix:${socketPath(version, spec.name)}|fcgi://${PREFIX}${spec.name}"
    </FilesMatch>
    ProxyFCGISetEnvIf "true" !PHP_VALUE
    ProxyFCGISetEnvIf "true" !PHP_ADMIN_VALUE
    SetEnvIf Authorization "(.+)" HTTP_AUTHORIZATION=$1
    SetEnvIf X-Forwarded-Proto "^https$" HTTPS=on
    RemoteIPHeader X-Forwarded-For
    RemoteIPInternalProxy 127.0.0.1
    ErrorLog ${appLogPath(spec.name, 'apache', 'error')}
    CustomLog ${appLogPath(spec.name, 'apache', 'access')} combined
</VirtualHost>
`;
}

export const LOGROTATE_PATH = '/etc/logrotate.d/stackdeck-apps';

/**
 * Daily rotation of every app's logs, 14 days kept. `delaycompress` leaves yesterday's file
 * plain (`.1`), where the log pages continue; nginx and Apache reopen their files after.
 */
export function renderLogrotate(): string {
  return `# Written by Stackdeck: changes here are replaced.
${APP_LOG_DIR}/*/*.log {
	daily
	missingok
	rotate 14
	compress
	delaycompress
	notifempty
	sharedscripts
	postrotate
		if [ -s /run/nginx.pid ]; then kill -USR1 "$(cat /run/nginx.pid)"; fi
		if pgrep -f ^/usr/sbin/apache2 > /dev/null; then apache2ctl graceful > /dev/null 2>&1; fi
	endscript
}
`;
}

/** The page a new app shows until its files arrive. */
export function placeholder(spec: AppSpec): { file: string; content: string } {
  if (spec.php_version === null)
    return {
      file: 'index.html',
      content: `<!doctype html>\n<title>${spec.domains[0]}</title>\n<p>${spec.domains[0]} is ready for its files.</p>\n`,
    };
  return {
    file: 'index.php',
    content: `<?php\n// ${spec.domains[0]} is ready for its files: replace this one.\necho '<!doctype html><title>${spec.domains[0]}</title><p>${spec.domains[0]} runs PHP ' . PHP_VERSION . '.</p>';\n`,
  };
}
