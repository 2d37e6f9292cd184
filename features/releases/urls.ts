/**
 * Download addresses of the release catalogue. The admin sets them (users never do), so a
 * loopback mirror is allowed; only http(s), no credentials, no fragment.
 */
export const APPS = [
  'wordpress',
  'joomla',
  'nodejs',
  'phpmyadmin',
  'nextcloud',
  'moodle',
  'roundcube',
] as const;
export type App = (typeof APPS)[number];

/** The apps' names as their projects write them. */
export const APP_LABELS: Record<App, string> = {
  wordpress: 'WordPress',
  joomla: 'Joomla',
  nodejs: 'Node.js',
  phpmyadmin: 'phpMyAdmin',
  nextcloud: 'Nextcloud',
  moodle: 'Moodle',
  roundcube: 'Roundcube',
};

/** Where a catalogue entry comes from (see appReleaseSchema's `source`). */
export const SOURCES = ['pinned', 'official', 'debian'] as const;
export type Source = (typeof SOURCES)[number];

/** The apps Debian packages (wordpress, phpmyadmin, roundcube-core). */
export const DEBIAN_APPS = ['wordpress', 'phpmyadmin', 'roundcube'] as const;
export type DebianApp = (typeof DEBIAN_APPS)[number];

/** The apps with an official source: every app with a release (Node.js has none). */
export const OFFICIAL_APPS = [
  'wordpress',
  'nextcloud',
  'joomla',
  'moodle',
  'phpmyadmin',
  'roundcube',
] as const;
export type OfficialApp = (typeof OFFICIAL_APPS)[number];

export const FORMATS = ['tar.gz', 'tar.bz2', 'tgz', 'zip'] as const;
export type Format = (typeof FORMATS)[number];

/** The form's choices, labelled: the apps' names, the formats as written. */
export const RELEASE_CHOICES = {
  app: APP_LABELS,
  format: Object.fromEntries(FORMATS.map((f) => [f, f])),
};

export const SHA256 = /^[0-9a-f]{64}$/;

/** Why an address is refused, or null when it is acceptable. */
export function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Give a full address: https://host/path/file.tar.gz';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'Only https:// or http:// addresses';
  if (url.username || url.password) return 'No user name or password in the address';
  if (url.hash) return 'No #fragment in the address';
  if (!url.hostname) return 'The address names no host';
  return null;
}

/**
 * Why a mirror's base address is refused: as a release URL, and no `?query` either, since the
 * files are found under it as `<mirror>/<app>/<file>`.
 */
export function mirrorProblem(value: string): string | null {
  const problem = urlProblem(value);
  if (problem) return problem;
  if (new URL(value).search) return 'No ?query in a mirror address: files are found under its path';
  return null;
}

/** The file name of an official URL: its last path segment. */
export function fileNameOf(value: string): string | null {
  const url = new URL(value);
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  if (!last || last === '.' || last === '..' || last.includes('/') || last.includes('\\'))
    return null;
  return last;
}

/** `<mirror>/<app>/<file name of the official URL>` when a mirror is set, else the URL. */
export function downloadUrl(release: { app: string; url: string }, mirror: string | null): string {
  if (!mirror) return release.url;
  const name = fileNameOf(release.url);
  if (!name) return release.url;
  return `${mirror.replace(/\/+$/, '')}/${encodeURIComponent(release.app)}/${encodeURIComponent(name)}`;
}
