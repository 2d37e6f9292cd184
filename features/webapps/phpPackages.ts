/**
 * PHP versions a server can install, read from apt's own view of its package sources
 * (`apt-cache policy`): Debian 12 carries 8.2; the Sury repository (packages.sury.org/php), the
 * usual third-party source, carries 5.6 to 8.4 once it is set up. Pure: the agent runs apt, this
 * reads what it says and builds what it runs.
 */

/** The versions the panel knows how to run (Sury's range); others are never asked of apt. */
export const KNOWN_PHP_VERSIONS = [
  '5.6',
  '7.0',
  '7.1',
  '7.2',
  '7.3',
  '7.4',
  '8.0',
  '8.1',
  '8.2',
  '8.3',
  '8.4',
] as const;

export type PackageSource = 'debian' | 'sury' | 'other';

export interface PackagePolicy {
  installed: string | null;
  candidate: string | null;
  /** Where the candidate comes from. */
  source: PackageSource | null;
}

const sourceOf = (line: string): PackageSource =>
  /packages\.sury\.org/.test(line)
    ? 'sury'
    : /(^|\/\/)[a-z0-9.-]*debian\.(org|net)\//.test(line.trim().split(/\s+/)[1] ?? '')
      ? 'debian'
      : 'other';

/** `apt-cache policy pkg...` as a map of package to installed, candidate and its source. */
export function parsePolicy(text: string): Map<string, PackagePolicy> {
  const found = new Map<string, PackagePolicy>();
  let current: PackagePolicy | null = null;
  let inCandidate = false;
  for (const line of text.split('\n')) {
    const name = /^(\S+):$/.exec(line);
    if (name) {
      current = { installed: null, candidate: null, source: null };
      found.set(name[1]!, current);
      inCandidate = false;
      continue;
    }
    if (!current) continue;
    const field = /^ {2}(Installed|Candidate): (.+)$/.exec(line);
    if (field) {
      const value = field[2]!.trim() === '(none)' ? null : field[2]!.trim();
      if (field[1] === 'Installed') current.installed = value;
      else current.candidate = value;
      continue;
    }
    // The version table: "     VERSION PRIO" (or " *** VERSION PRIO"), then its sources.
    const version = /^ {5}(?:\*\*\* )?(\S+) -?\d+$|^ \*\*\* (\S+) -?\d+$/.exec(line);
    if (version) {
      inCandidate = (version[1] ?? version[2]) === current.candidate;
      continue;
    }
    const source = /^ {8}-?\d+ (\S+)/.exec(line);
    if (source && inCandidate && current.source === null && !source[1]!.startsWith('/var/lib/dpkg'))
      current.source = sourceOf(line);
  }
  return found;
}

/** The FPM package of a version (what tells whether apt can install it). */
export const fpmPackage = (version: string) => `php${version}-fpm`;

/**
 * What `apt-get` runs to install a version: its FPM and CLI only, named by version (never the
 * `php` metapackage, which pulls Apache's mod_php in); extensions come one by one (EasyPHP).
 */
export const installArgv = (version: string): string[] => [
  'install',
  '-y',
  '--no-install-recommends',
  '-o',
  'Dpkg::Options::=--force-confold',
  fpmPackage(version),
  `php${version}-cli`,
];
