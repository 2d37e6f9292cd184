import type { Sandbox } from '../../../scripts/sandbox/index';
import type { Panel } from './panel';

/** Serves /srv/dl of the sandbox over HTTP on its loopback (once per port). */
async function serve(sb: Sandbox, port: number) {
  await sb.execOk([
    'bash',
    '-c',
    `ss -Hltn 'sport = :${port}' | grep -q . || (nohup python3 -m http.server --bind 127.0.0.1 -d /srv/dl ${port} >/dev/null 2>&1 &)`,
  ]);
}

/**
 * This machine has no internet: the WordPress release the catalogue serves is built from
 * Debian's `wordpress` package (the real code, 6.1.9) the way wordpress.org lays out its
 * archive — one `wordpress/` folder, links dereferenced (release.fetch refuses links), without
 * Debian's own wp-config.php loader and .htaccess — and served over HTTP inside the sandbox.
 * Returns the catalogue entry's fields.
 */
export async function serveWordpress(sb: Sandbox, port: number) {
  const file = '/srv/dl/wordpress/wordpress-6.1.9.tar.gz';
  await sb.execOk(['mkdir', '-p', '/srv/dl/wordpress']);
  await sb.execOk([
    'tar',
    '-czhf',
    file,
    '--exclude=wordpress/wp-config.php',
    '--exclude=wordpress/.htaccess',
    '-C',
    '/usr/share',
    'wordpress',
  ]);
  const sha256 = (await sb.execOk(['sha256sum', file])).stdout.split(' ')[0]!;
  await serve(sb, port);
  return {
    url: `http://127.0.0.1:${port}/wordpress/wordpress-6.1.9.tar.gz`,
    sha256,
    file,
  };
}

/**
 * Roundcube's release, built from Debian's `roundcube-core` 1.6.5 (its code in
 * /usr/share/roundcube, its web folder in /var/lib/roundcube) the way roundcube.net lays out
 * its archive: one `roundcubemail-1.6.5/` folder with public_html, program, plugins, skins,
 * SQL and config/defaults.inc.php, links dereferenced; Debian's own config left out. Its PHP
 * libraries stay Debian's (/usr/share/php, which the app's pool may read), where upstream
 * ships them in vendor/.
 */
export async function serveRoundcube(sb: Sandbox, port: number) {
  const stage = '/tmp/rc-stage/roundcubemail-1.6.5';
  const file = '/srv/dl/roundcube/roundcubemail-1.6.5-complete.tar.gz';
  await sb.execOk(['rm', '-rf', '/tmp/rc-stage']);
  await sb.execOk([
    'mkdir',
    '-p',
    `${stage}/config`,
    `${stage}/logs`,
    `${stage}/temp`,
    '/srv/dl/roundcube',
  ]);
  // Debian links a few files to packages a sandbox host does not carry (less.min.js): those
  // stay out, as they would from a dereferencing copy of a real install.
  const parts = ['index.php', 'program', 'public_html', 'plugins', 'skins', 'SQL'];
  await sb.exec(['cp', '-rL', ...parts.map((name) => `/var/lib/roundcube/${name}`), stage]);
  await sb.execOk(['test', '-f', `${stage}/program/include/iniset.php`]);
  await sb.execOk(['cp', '/etc/roundcube/defaults.inc.php', `${stage}/config/`]);
  await sb.execOk(['tar', '-czf', file, '-C', '/tmp/rc-stage', 'roundcubemail-1.6.5']);
  const sha256 = (await sb.execOk(['sha256sum', file])).stdout.split(' ')[0]!;
  await serve(sb, port);
  return {
    url: `http://127.0.0.1:${port}/roundcube/roundcubemail-1.6.5-complete.tar.gz`,
    sha256,
    file,
  };
}

/**
 * phpMyAdmin 5.2.1 from Debian's /usr/share/phpmyadmin, laid out as upstream's
 * `phpMyAdmin-5.2.1-all-languages.tar.gz` (one top-level folder), links dereferenced, hard ones
 * too (release.fetch refuses both). It stays Debianised (libraries/vendor_config.php reads
 * /etc/phpmyadmin, autoload.php loads the libraries from /usr/share/php, which the app's pool
 * may read): pma.configure points the app's copy at its own config.
 */
export async function servePhpMyAdmin(sb: Sandbox, port: number) {
  const top = 'phpMyAdmin-5.2.1-all-languages';
  const file = `/srv/dl/phpmyadmin/${top}.tar.gz`;
  await sb.execOk(['mkdir', '-p', '/srv/dl/phpmyadmin']);
  await sb.execOk([
    'tar',
    '-czhf',
    file,
    '--hard-dereference',
    '--exclude=phpmyadmin/config.inc.php',
    `--transform=s,^phpmyadmin,${top},`,
    '-C',
    '/usr/share',
    'phpmyadmin',
  ]);
  const sha256 = (await sb.execOk(['sha256sum', file])).stdout.split(' ')[0]!;
  await serve(sb, port);
  return { url: `http://127.0.0.1:${port}/phpmyadmin/${top}.tar.gz`, sha256, file };
}

/** Pins a release in the panel's catalogue (the admin API is tested in tests/api). */
export async function pinRelease(
  panel: Panel,
  app: string,
  version: string,
  release: { url: string; sha256: string },
) {
  const at = new Date().toISOString();
  await panel.t.app.db
    .insertInto('app_releases')
    .values({
      app,
      version,
      url: release.url,
      sha256: release.sha256,
      size: null,
      format: 'tar.gz',
      is_default: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
