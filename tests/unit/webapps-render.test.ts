import { describe, expect, it } from 'vitest';
import { parseHeader, renderApache, renderNginx, renderPool } from '../../features/webapps/render';
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
