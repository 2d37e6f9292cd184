/**
 * A web app's nginx file, as a pure function of its spec and its user's home: the header read
 * back for the drift check, the body of each stack (PHP-FPM, Apache behind nginx, Node.js,
 * static) and the HTTP and HTTPS server blocks. Every value comes from an allowlist (names.ts),
 * so none can end a directive. research/hosting.md 1.2–1.4.
 */
import { ACME_ROOT, APACHE_PORT, docRoot, snippetsDir, socketPath, sslDir } from './appPaths';
import { appLogPath } from './names';
import type { AppSpec } from './resource';
import { cacheDirectives, cacheRules, cacheZone } from './renderNginxCache';

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
