import type { Sandbox } from '../../../scripts/sandbox/index';
import type { Panel } from './panel';

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
  await sb.execOk([
    'bash',
    '-c',
    `nohup python3 -m http.server --bind 127.0.0.1 -d /srv/dl ${port} >/dev/null 2>&1 &`,
  ]);
  return {
    url: `http://127.0.0.1:${port}/wordpress/wordpress-6.1.9.tar.gz`,
    sha256,
    file,
  };
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
