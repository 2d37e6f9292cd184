import type { Sandbox } from '../../../scripts/sandbox/index';
import type { Panel } from './panel';

/** Serves /srv/dl of the sandbox over HTTP on its loopback (once per port), and waits for it. */
export async function serveDownloads(sb: Sandbox, port: number) {
  await sb.execOk([
    'bash',
    '-c',
    `ss -Hltn 'sport = :${port}' | grep -q . || (nohup python3 -m http.server --bind 127.0.0.1 -d /srv/dl ${port} >/dev/null 2>&1 &)`,
  ]);
  for (let i = 0; i < 100; i++) {
    const up = await sb.exec(['curl', '-sf', '-o', '/dev/null', `http://127.0.0.1:${port}/`]);
    if (up.code === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing serves /srv/dl on port ${port}`);
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
  await serveDownloads(sb, port);
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
  await serveDownloads(sb, port);
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
  await serveDownloads(sb, port);
  return { url: `http://127.0.0.1:${port}/phpmyadmin/${top}.tar.gz`, sha256, file };
}

/** Pins a release in the panel's catalogue (the admin API is tested in tests/api). */
export async function pinRelease(
  panel: Panel,
  app: string,
  version: string,
  release: { url: string; sha256: string; format?: string },
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
      format: release.format ?? 'tar.gz',
      is_default: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * What a fixture's CLI does: records how it was called (one JSON line per call, in the app's
 * folder, outside the web root) and leaves the file the real installer leaves, so the site's
 * index says it is installed. These are NOT Nextcloud, Joomla or Moodle: this machine has no
 * internet and Debian has no package of them, so their tests prove the download, the checksum,
 * the layout, the user and the exact command line, never the real installers (README).
 */
const recorder = (cli: string, made: string) => `<?php
// A FIXTURE of an installer CLI for tests without internet: it records its arguments.
$root = dirname(__FILE__, ${cli.split('/').length});
file_put_contents(dirname($root) . '/fixture-calls.log', json_encode(array_slice($argv, 1)) . "\\n", FILE_APPEND);
if (array_intersect(['maintenance:install', 'install', '--non-interactive'], array_slice($argv, 1, 1))) {
    @mkdir(dirname($root . '/${made}'), 0750, true);
    file_put_contents($root . '/${made}', "<?php // written by the fixture\\n");
}
echo "fixture: recorded\\n";
`;

const index = (label: string, made: string) =>
  `<?php echo file_exists(__DIR__ . '/${made}') ? '${label} fixture: installed' : '${label} fixture: not installed';\n`;

const FIXTURES = {
  nextcloud: {
    top: 'nextcloud',
    cli: 'occ',
    made: 'config/config.php',
    label: 'Nextcloud',
    format: 'tar.bz2',
  },
  joomla: {
    top: '',
    cli: 'installation/joomla.php',
    made: 'configuration.php',
    label: 'Joomla',
    format: 'zip',
  },
  moodle: {
    top: 'moodle',
    cli: 'admin/cli/install.php',
    made: 'config.php',
    label: 'Moodle',
    format: 'tgz',
  },
} as const;

/** A fixture release of Nextcloud, Joomla or Moodle, in its project's archive format and layout. */
export async function serveFixture(
  sb: Sandbox,
  app: keyof typeof FIXTURES,
  port: number,
  tamper = false,
) {
  const f = FIXTURES[app];
  const stage = `/tmp/fx-${app}`;
  const root = f.top ? `${stage}/${f.top}` : stage;
  await sb.execOk(['rm', '-rf', stage]);
  await sb.execOk([
    'mkdir',
    '-p',
    `${root}/${f.cli.split('/').slice(0, -1).join('/') || '.'}`,
    `/srv/dl/${app}`,
  ]);
  await sb.execOk(['tee', `${root}/${f.cli}`], { input: recorder(f.cli, f.made) });
  await sb.execOk(['tee', `${root}/index.php`], { input: index(f.label, f.made) });
  const file = `/srv/dl/${app}/${app}-fixture.${f.format}`;
  await sb.execOk(['rm', '-f', file]);
  if (f.format === 'zip') await sb.execOk(['bash', '-c', `cd ${stage} && zip -qr ${file} .`]);
  else await sb.execOk(['tar', f.format === 'tar.bz2' ? '-cjf' : '-czf', file, '-C', stage, f.top]);
  const sha256 = (await sb.execOk(['sha256sum', file])).stdout.split(' ')[0]!;
  if (tamper) await sb.execOk(['bash', '-c', `printf x >> ${file}`]);
  await serveDownloads(sb, port);
  return {
    url: `http://127.0.0.1:${port}/${app}/${app}-fixture.${f.format}`,
    sha256,
    format: f.format,
  };
}
