import { describe, expect, it } from 'vitest';
import { renderNginx } from '../../features/webapps/renderNginx';
import { webappSpec } from './webappSpec';

const spec = webappSpec;

const blocks = (vhost: string) => vhost.split(/^server \{$/m).slice(1);

/** The TLS part of an app's vhost (features/ssl): port 443 beside 80, and force HTTPS. */
describe('the HTTPS server of an app', () => {
  it('serves plain HTTP only without a certificate', () => {
    const vhost = renderNginx(spec(), '/home/alice');
    expect(blocks(vhost)).toHaveLength(1);
    expect(vhost).not.toMatch(/443|ssl_certificate/);
  });

  it('adds a 443 server with the same locations and the certificate files', () => {
    const vhost = renderNginx(spec({ tls: { force_https: false } }), '/home/alice');
    const [plain, tls] = blocks(vhost);
    expect(tls).toContain('    listen 443 ssl http2;\n    listen [::]:443 ssl http2;\n');
    expect(tls).toContain('ssl_certificate /etc/stackdeck/ssl/app-shop/fullchain.pem;');
    expect(tls).toContain('ssl_certificate_key /etc/stackdeck/ssl/app-shop/privkey.pem;');
    expect(tls).toContain('fastcgi_pass unix:/run/php/php8.2-fpm-stackdeck-shop.sock;');
    expect(plain).toContain('fastcgi_pass');
    expect(plain).not.toContain('return 301');
  });

  it('redirects port 80 with force HTTPS, the ACME challenge still served there first', () => {
    const vhost = renderNginx(spec({ tls: { force_https: true } }), '/home/alice');
    const [plain, tls] = blocks(vhost);
    expect(plain).toContain('location / {\n        return 301 https://$host$request_uri;\n    }');
    // A location, not a server-level return: the challenge location wins over it.
    expect(plain).not.toMatch(/^ {4}return 301/m);
    expect(plain!.indexOf('acme-challenge')).toBeLessThan(plain!.indexOf('return 301'));
    expect(plain).not.toContain('fastcgi_pass');
    expect(tls).not.toContain('return 301');
    expect(tls).toContain('fastcgi_pass');
  });
});
