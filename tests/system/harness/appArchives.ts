import type { Sandbox } from '../../../scripts/sandbox/index';

/**
 * The release archives the catalogue serves in system tests. This machine has no internet:
 * each is built inside the sandbox from the Debian package that carries the app's real code,
 * laid out as the project's own archive is (one top-level folder), links dereferenced
 * (release.fetch refuses links, hard ones included). One function per app.
 */
export interface BuiltArchive {
  /** Where it is in the sandbox, under `root`. */
  file: string;
  /** Its path under the served folder, for the URL. */
  served: string;
  sha256: string;
  version: string;
}

/** The folder the archives are built into and served from (see serveArchives). */
export const ARCHIVE_ROOT = '/srv/dl';

/**
 * phpMyAdmin 5.2.1 from Debian's /usr/share/phpmyadmin, as upstream's
 * `phpMyAdmin-5.2.1-all-languages.tar.gz`. It stays Debianised (vendor_config.php reads
 * /etc/phpmyadmin, autoload.php loads the libraries from /usr/share/php): pma.configure points
 * the app's copy at its own config.
 */
export async function phpMyAdminArchive(sb: Sandbox): Promise<BuiltArchive> {
  const version = '5.2.1';
  const top = `phpMyAdmin-${version}-all-languages`;
  const served = `phpmyadmin/${top}.tar.gz`;
  const file = `${ARCHIVE_ROOT}/${served}`;
  await sb.execOk(['mkdir', '-p', `${ARCHIVE_ROOT}/phpmyadmin`]);
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
  return { file, served, sha256, version };
}

/** Serves ARCHIVE_ROOT over HTTP on the sandbox's loopback; answers the base URL. */
export async function serveArchives(sb: Sandbox, port: number): Promise<string> {
  await sb.execOk(['mkdir', '-p', ARCHIVE_ROOT]);
  await sb.execOk([
    'bash',
    '-c',
    `nohup python3 -m http.server --bind 127.0.0.1 -d ${ARCHIVE_ROOT} ${port} >/dev/null 2>&1 &`,
  ]);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if ((await sb.exec(['curl', '-sf', '-o', '/dev/null', `${base}/`])).code === 0) return base;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the archive server did not start');
}
