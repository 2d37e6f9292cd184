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

/** The first hash of `length` hex digits in a checksum file (`<hex>  <file name>`). */
export function checksumIn(text: string, length: 40 | 64, file: string): string {
  const m = new RegExp(`(?:^|\\s)([0-9a-fA-F]{${length}})(?:\\s|$)`).exec(text);
  if (!m) throw new CheckProblem(`${file} holds no checksum`);
  return m[1]!.toLowerCase();
}

function json(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CheckProblem(`${where} is not JSON`);
  }
}

/** WordPress's version-check answer: the newest offer's version. */
export function wordpressVersion(text: string): string {
  const offers = (json(text, 'WordPress’s version check') as { offers?: unknown }).offers;
  if (!Array.isArray(offers) || offers.length === 0)
    throw new CheckProblem('WordPress’s version check offers no release');
  const versions = offers
    .map((o) => (o as { version?: unknown }).version)
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
  return version(
    (json(text, 'phpMyAdmin’s version.json') as { version?: unknown }).version,
    'phpMyAdmin’s version.json',
  );
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

interface GithubAsset {
  name?: unknown;
  browser_download_url?: unknown;
  digest?: unknown;
  size?: unknown;
}

/** The asset of a GitHub release whose name matches, with the SHA-256 GitHub published. */
export function githubAsset(text: string, name: RegExp, project: string): Published {
  const release = json(text, `${project}’s latest release`) as { assets?: unknown };
  const assets = Array.isArray(release.assets) ? (release.assets as GithubAsset[]) : [];
  for (const asset of assets) {
    const m = typeof asset.name === 'string' ? name.exec(asset.name) : null;
    if (!m) continue;
    const url = String(asset.browser_download_url ?? '');
    if (!/^https?:\/\//.test(url)) continue;
    const digest = /^sha256:([0-9a-f]{64})$/i.exec(String(asset.digest ?? ''));
    if (!digest)
      throw new CheckProblem(
        `${project}’s release file ${asset.name as string} has no published SHA-256`,
      );
    return {
      version: version(m[1], `${project}’s latest release`),
      url,
      format: asset.name!.toString().endsWith('.zip') ? 'zip' : 'tar.gz',
      checksum: { algorithm: 'sha256', hex: digest[1]!.toLowerCase() },
      size: typeof asset.size === 'number' ? asset.size : null,
    };
  }
  throw new CheckProblem(`${project}’s latest release has no ${name.source} file`);
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
      );
    case 'roundcube':
      return githubAsset(
        await read('https://api.github.com/repos/roundcube/roundcubemail/releases/latest'),
        /^roundcubemail-(\d[\d.]*)-complete\.tar\.gz$/,
        'Roundcube',
      );
  }
}
