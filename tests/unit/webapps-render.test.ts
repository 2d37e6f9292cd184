import { describe, expect, it } from 'vitest';
import { renderApache } from '../../features/webapps/renderApache';
import { parseHeader, renderNginx } from '../../features/webapps/renderNginx';
import { renderPool } from '../../features/webapps/renderPhpPool';
import { DEFAULT_PHP_SETTINGS } from '../../features/webapps/names';
import { appSpec } from '../../features/webapps/resource';
import { webappSpec } from './webappSpec';

const spec = webappSpec;

/** The files of a web app, from its spec: what the agent writes before nginx -t checks it. */
describe('web app files', () => {
  it('gives the pool its own user, socket, open_basedir and settings the app cannot raise', () => {
    const pool = renderPool(spec(), '/home/alice', '8.2');
    expect(pool).toContain('[stackdeck-shop]\nuser = alice\ngroup = alice\n');
    expect(pool).toContain('listen = /run/php/php8.2-fpm-stackdeck-shop.sock\n');
    expect(pool).toContain('listen.group = www-data\nlisten.mode = 0660\n');
    expect(pool).toContain(
      'php_admin_value[open_basedir] = /home/alice/apps/shop/:/home/alice/tmp/:',
    );
    expect(pool).toContain('php_admin_value[memory_limit] = 256M\n');
    expect(pool).toMatch(/php_admin_value\[disable_functions\] = exec,passthru,.*popen/);
    expect(pool).not.toMatch(/^php_value/m);
  });

  it('serves the primary and the other names, the challenge first, dotfiles never', () => {
    const vhost = renderNginx(spec(), '/home/alice');
    expect(vhost).toContain('server_name shop.example www.shop.example;');
    expect(vhost).toContain('root /home/alice/apps/shop/public;');
    expect(vhost.indexOf('acme-challenge')).toBeLessThan(vhost.indexOf('include /etc/stackdeck'));
    expect(vhost).toContain('location ~ /\\.(?!well-known) {\n        deny all;');
    expect(vhost).toContain('fastcgi_pass unix:/run/php/php8.2-fpm-stackdeck-shop.sock;');
    expect(parseHeader(vhost)).toEqual({
      name: 'shop',
      user: 'alice',
      stack_type: 'nginx',
      php_version: '8.2',
      domains: ['shop.example', 'www.shop.example'],
      web_root: 'public',
    });
    expect(parseHeader('server {}\n')).toBeNull();
  });

  it('proxies to Apache on loopback for the hybrid stack, and a static site runs no PHP', () => {
    const hybrid = spec({ stack_type: 'apache/nginx' });
    expect(renderNginx(hybrid, '/home/alice')).toContain('proxy_pass http://127.0.0.1:8080;');
    const apache = renderApache(hybrid, '/home/alice', '8.2');
    expect(apache).toContain('<VirtualHost 127.0.0.1:8080>');
    expect(apache).toContain('ServerName shop.example\n    ServerAlias www.shop.example\n');
    // .htaccess may not name handlers (FileInfo), so it cannot reach another app's pool.
    expect(apache).toMatch(/AllowOverride (?!.*FileInfo).*\n/);
    const site = renderNginx(spec({ webapp_type: 'static', php_version: null }), '/home/alice');
    expect(site).not.toContain('fastcgi_pass');
    expect(site).toContain('try_files $uri $uri/ =404;');
  });

  it('caches PHP pages only when asked, never POSTs, query strings or the bypass list', () => {
    expect(renderNginx(spec(), '/home/alice')).not.toContain('fastcgi_cache');
    const cached = renderNginx(
      spec({
        cache: {
          ttl_seconds: 120,
          bypass_paths: ['/wp-admin', '/a.php'],
          bypass_cookies: ['sess'],
        },
      }),
      '/home/alice',
    );
    // The zone is declared at http level, before the server block.
    expect(cached.indexOf('fastcgi_cache_path /var/cache/nginx/stackdeck/shop')).toBeLessThan(
      cached.indexOf('server {'),
    );
    expect(cached).toContain('if ($request_method !~ ^(GET|HEAD)$) { set $stackdeck_skip 1; }');
    expect(cached).toContain('if ($request_uri ~* "^(/wp-admin|/a\\.php)") {');
    expect(cached).toContain('if ($http_cookie ~* "(sess)") {');
    expect(cached).toContain('fastcgi_cache_valid 200 301 302 120s;');
    expect(cached).toContain('add_header X-Stackdeck-Cache $upstream_cache_status always;');
  });

  it('proxies a Node.js app to its port, websockets included, with no PHP and no cache', () => {
    const node = spec({
      name: 'api-app',
      webapp_type: 'nodejs',
      php_version: null,
      proxy_port: 3001,
      tls: { force_https: false },
    });
    const vhost = renderNginx(node, '/home/alice');
    // The map is the app's own variable, at http level (before the first server block).
    expect(vhost).toContain(
      "map $http_upgrade $stackdeck_upgrade_api_app {\n    default upgrade;\n    '' close;\n}\n",
    );
    expect(vhost.indexOf('map $http_upgrade')).toBeLessThan(vhost.indexOf('server {'));
    expect(vhost.match(/map \$http_upgrade/g)).toHaveLength(1);
    // Both the plain and the TLS server proxy, after the challenge, snippets and dotfile rules.
    const proxies = vhost.match(/proxy_pass http:\/\/127\.0\.0\.1:3001;/g);
    expect(proxies).toHaveLength(2);
    expect(vhost).toContain(
      'proxy_http_version 1.1;\n        proxy_set_header Upgrade $http_upgrade;',
    );
    expect(vhost).toContain('proxy_set_header Connection $stackdeck_upgrade_api_app;');
    expect(vhost).toContain('proxy_set_header Host $host;');
    expect(vhost).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(vhost).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    expect(vhost.indexOf('acme-challenge')).toBeLessThan(vhost.indexOf('proxy_pass'));
    expect(vhost.indexOf('include /etc/stackdeck/nginx/api-app/*.conf')).toBeLessThan(
      vhost.indexOf('proxy_pass'),
    );
    expect(vhost).toContain('access_log /var/log/stackdeck/apps/api-app/nginx.access.log;');
    expect(vhost).toContain('ssl_certificate /etc/stackdeck/ssl/app-api-app/fullchain.pem;');
    expect(vhost).not.toContain('fastcgi');
    // A cache setting left on the row never reaches a proxied app.
    const cached = renderNginx(
      { ...node, cache: { ttl_seconds: 60, bypass_paths: [], bypass_cookies: [] } },
      '/home/alice',
    );
    expect(cached).not.toContain('fastcgi_cache');
    // Every other app renders as before: no map, no proxy to a port of its own.
    expect(renderNginx(spec(), '/home/alice')).not.toContain('$http_upgrade');
    expect(spec().proxy_port).toBeNull();
  });

  it('takes a proxy port only as a number in the unprivileged range', () => {
    for (const port of [80, 0, 70000, '3001;', 3000.5])
      expect(appSpec.safeParse({ ...spec(), proxy_port: port }).success, String(port)).toBe(false);
  });

  it('cannot be given a value that ends a directive', () => {
    for (const bad of [
      { domains: ['a.example;include /etc/passwd'] },
      { name: 'shop;' },
      { user: 'alice\n' },
      { web_root: 'public;' },
      { php_settings: { ...DEFAULT_PHP_SETTINGS, memory_limit: '1G;' } },
    ])
      expect(appSpec.safeParse({ ...spec(), ...bad }).success, JSON.stringify(bad)).toBe(false);
  });
});
