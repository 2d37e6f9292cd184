/**
 * Where each project publishes its releases and their checksums, and how to read them: the
 * "official" sources of the catalogue. Pure (no network): serverCheck.ts fetches what these
 * name and hands the text back. Written to the projects' public pages and APIs:
 * - WordPress: api.wordpress.org/core/version-check/1.7/ (`offers[].version`), and
 *   wordpress.org/wordpress-X.tar.gz with its `.sha1` (WordPress publishes SHA-1 and MD5 only);
 * - Nextcloud: the listing of download.nextcloud.com/server/releases/ and `<file>.sha256`;
 * - phpMyAdmin: www.phpmyadmin.net/home_page/version.json and files.phpmyadmin.net's `.sha256`;
 * - Moodle: download.moodle.org/releases/latest/ and `<file>.sha256`;
 * - Joomla and Roundcube: their GitHub releases (`releases/latest`), the full package asset and
 *   the SHA-256 GitHub publishes for it (`digest`).
 */
import type { Format, OfficialApp } from './urls';

/** A release a project published: the file and the checksum it published for it. */
export interface Published {
  version: string;
  url: string;
  format: Format;
  /** The project's own checksum of the file: SHA-256, or SHA-1 where it publishes no other. */
  checksum: { algorithm: 'sha256' | 'sha1'; hex: string };
  /** Its size when the project says it (GitHub does). */
  size: number | null;
}

/** A refusal in words, for the admin: the check changes nothing. */
export class CheckProblem extends Error {}

/** Reads a document of the project (text); throws CheckProblem when it cannot. */
export type Reader = (url: string) => Promise<string>;

export const VERSION = /^[0-9][0-9A-Za-z.+~_-]{0,31}$/;

/** Compares dotted versions numerically (6.10 after 6.9); non-numeric parts compare as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+~_-]/);
  const pb = b.split(/[.+~_-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (d !== 0) return d;
  }
  return 0;
}

const newest = (versions: string[]) => [...versions].sort(compareVersions).at(-1);

function version(value: unknown, where: string): string {
  if (typeof value !== 'string' || !VERSION.test(value))
    throw new CheckProblem(`${where} names no version this panel can read`);
  return value;
}

/**
 * The checksum a checksum file (`file`: `<archive>.sha256` or `.sha1`) publishes for its
 * archive: a hash alone (WordPress's `.sha1`), or lines naming the file as sha256sum writes
 * them (Nextcloud, phpMyAdmin, Moodle: `<hash>  <archive>`). A line naming another file is
 * never taken: its hash pinned would refuse every download of the right archive.
 */
export function checksumIn(text: string, length: 40 | 64, file: string): string {
  const archive = file.replace(/\.(?:sha1|sha256)$/, '');
  const hex = `([0-9a-fA-F]{${length}})`;
  // sha256sum's `<hash>  <name>` (`*<name>` in binary mode, `-` read from its input)...
  const gnu = new RegExp(`^${hex}(?:[ \\t]+\\*?(\\S.*?))?$`);
  // ...and the tagged `SHA256 (<name>) = <hash>` of BSD's tools and `sha256sum --tag`.
  const bsd = new RegExp(`^SHA${length === 40 ? '1' : '256'} \\((.+)\\) = ${hex}$`);
  const others: string[] = [];
  for (const each of text.split(/\r?\n/)) {
    const g = gnu.exec(each.trim());
    const b = g ? null : bsd.exec(each.trim());
    const [hash, named] = g ? [g[1]!, g[2]] : b ? [b[2]!, b[1]] : [null, undefined];
    if (hash === null) continue;
    const name = named?.split('/').pop();
    if (name === undefined || name === '-' || name === archive) return hash.toLowerCase();
    others.push(name);
  }
  const what = length === 40 ? 'SHA-1' : 'SHA-256';
  throw new CheckProblem(
    others.length > 0
      ? `${file} gives the ${what} of ${others[0]!.slice(0, 100)}, not of ${archive}`
      : `${file} holds no ${what} checksum`,
  );
}

/** A JSON object (not an array, null or a bare value), or a refusal naming `where`. */
function json(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new CheckProblem(`${where} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CheckProblem(`${where} is not the JSON object it should be`);
  return value as Record<string, unknown>;
}

/** `value[key]` when `value` is an object, else undefined. */
const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** WordPress's version-check answer: the newest offer's version. */
export function wordpressVersion(text: string): string {
  const offers = json(text, 'WordPress’s version check').offers;
  if (!Array.isArray(offers) || offers.length === 0)
    throw new CheckProblem('WordPress’s version check offers no release');
  const versions = offers
    .map((o) => field(o, 'version'))
    .filter((v): v is string => typeof v === 'string' && VERSION.test(v));
  return version(newest(versions), 'WordPress’s version check');
}

/** The newest stable `nextcloud-X.Y.Z.tar.bz2` of the releases listing. */
export function nextcloudVersion(html: string): string {
  const found = [...html.matchAll(/href="(?:[^"]*\/)?nextcloud-(\d+\.\d+\.\d+)\.tar\.bz2"/g)].map(
    (m) => m[1]!,
  );
  return version(newest(found), 'Nextcloud’s releases listing');
}

/** phpMyAdmin's version.json: `version` is the current stable release. */
export function phpmyadminVersion(text: string): string {
  return version(json(text, 'phpMyAdmin’s version.json').version, 'phpMyAdmin’s version.json');
}

/** The newest `stableNNN/moodle-X.tgz` the latest-release page links to. */
export function moodleRelease(html: string): { branch: string; version: string } {
  const found = [
    ...html.matchAll(/download\.php\/(?:direct\/)?(stable\d+)\/moodle-(\d+\.\d+(?:\.\d+)*)\.tgz/g),
  ].map((m) => ({ branch: m[1]!, version: m[2]! }));
  const best = newest(found.map((f) => f.version));
  const hit = found.find((f) => f.version === best);
  if (!hit) throw new CheckProblem('Moodle’s download page links to no release');
  return hit;
}

/**
 * The asset of a GitHub release whose name matches `name` (its first group: the version), with
 * the SHA-256 GitHub published for it (`digest`, on every asset uploaded since June 2025).
 * `file` names the asset to the admin: `roundcubemail-<version>-complete.tar.gz`.
 */
export function githubAsset(text: string, name: RegExp, project: string, file: string): Published {
  const release = json(text, `${project}’s latest release`);
  const assets: unknown[] = Array.isArray(release.assets) ? release.assets : [];
  for (const asset of assets) {
    const called = field(asset, 'name');
    const m = typeof called === 'string' ? name.exec(called) : null;
    if (!m) continue;
    const url = field(asset, 'browser_download_url');
    if (typeof url !== 'string' || !/^https:\/\//.test(url)) continue;
    const digest = /^sha256:([0-9a-f]{64})$/i.exec(String(field(asset, 'digest') ?? ''));
    if (!digest)
      throw new CheckProblem(
        `${project}’s release file ${called as string} has no published SHA-256`,
      );
    const size = field(asset, 'size');
    return {
      version: version(m[1], `${project}’s latest release`),
      url,
      format: (called as string).endsWith('.zip') ? 'zip' : 'tar.gz',
      checksum: { algorithm: 'sha256', hex: digest[1]!.toLowerCase() },
      size: typeof size === 'number' && Number.isSafeInteger(size) && size > 0 ? size : null,
    };
  }
  throw new CheckProblem(`${project}’s latest release has no ${file} file`);
}

/** The project's site as the admin reads it: where the release and its checksum come from. */
export const OFFICIAL_HOME: Record<OfficialApp, string> = {
  wordpress: 'wordpress.org',
  nextcloud: 'download.nextcloud.com',
  joomla: 'github.com/joomla/joomla-cms',
  moodle: 'download.moodle.org',
  phpmyadmin: 'phpmyadmin.net',
  roundcube: 'github.com/roundcube/roundcubemail',
};

/** The archive format each official source pins. */
export const OFFICIAL_FORMAT: Record<OfficialApp, Format> = {
  wordpress: 'tar.gz',
  nextcloud: 'tar.bz2',
  joomla: 'zip',
  moodle: 'tgz',
  phpmyadmin: 'tar.gz',
  roundcube: 'tar.gz',
};

/** The newest release of `app` and its published checksum, read through `read`. */
export async function latestOf(app: OfficialApp, read: Reader): Promise<Published> {
  const sha256Of = async (url: string) =>
    checksumIn(await read(`${url}.sha256`), 64, `${url.split('/').pop()!}.sha256`);
  switch (app) {
    case 'wordpress': {
      const v = wordpressVersion(await read('https://api.wordpress.org/core/version-check/1.7/'));
      const url = `https://wordpress.org/wordpress-${v}.tar.gz`;
      const hex = checksumIn(await read(`${url}.sha1`), 40, `wordpress-${v}.tar.gz.sha1`);
      return {
        version: v,
        url,
        format: 'tar.gz',
        checksum: { algorithm: 'sha1', hex },
        size: null,
      };
    }
    case 'nextcloud': {
      const base = 'https://download.nextcloud.com/server/releases';
      const v = nextcloudVersion(await read(`${base}/`));
      const url = `${base}/nextcloud-${v}.tar.bz2`;
      return {
        version: v,
        url,
        format: 'tar.bz2',
        checksum: { algorithm: 'sha256', hex: await sha256Of(url) },
        size: null,
      };
    }
    case 'phpmyadmin': {
      const v = phpmyadminVersion(await read('https://www.phpmyadmin.net/home_page/version.json'));
      const url = `https://files.phpmyadmin.net/phpMyAdmin/${v}/phpMyAdmin-${v}-all-languages.tar.gz`;
      return {
        version: v,
        url,
        format: 'tar.gz',
        checksum: { algorithm: 'sha256', hex: await sha256Of(url) },
        size: null,
      };
    }
    case 'moodle': {
      const { branch, version: v } = moodleRelease(
        await read('https://download.moodle.org/releases/latest/'),
      );
      const url = `https://download.moodle.org/download.php/direct/${branch}/moodle-${v}.tgz`;
      return {
        version: v,
        url,
        format: 'tgz',
        checksum: { algorithm: 'sha256', hex: await sha256Of(url) },
        size: null,
      };
    }
    case 'joomla':
      return githubAsset(
        await read('https://api.github.com/repos/joomla/joomla-cms/releases/latest'),
        /^Joomla_(\d[\d.]*)-Stable-Full_Package\.zip$/,
        'Joomla',
        'Joomla_<version>-Stable-Full_Package.zip',
      );
    case 'roundcube':
      return githubAsset(
        await read('https://api.github.com/repos/roundcube/roundcubemail/releases/latest'),
        /^roundcubemail-(\d[\d.]*)-complete\.tar\.gz$/,
        'Roundcube',
        'roundcubemail-<version>-complete.tar.gz',
      );
  }
}
