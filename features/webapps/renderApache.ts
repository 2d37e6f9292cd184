/**
 * A web app's Apache vhost (the hybrid stack, behind nginx), as a pure function of its spec and
 * its user's home. Every value comes from an allowlist (names.ts). research/hosting.md 1.3.
 */
import { APACHE_PORT, PREFIX, docRoot, socketPath } from './appPaths';
import { appLogPath } from './names';
import type { AppSpec } from './resource';

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
