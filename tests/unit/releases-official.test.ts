import { describe, expect, it } from 'vitest';
import {
  CheckProblem,
  checksumIn,
  compareVersions,
  githubAsset,
  latestOf,
  moodleRelease,
  nextcloudVersion,
  phpmyadminVersion,
  wordpressVersion,
} from '../../features/releases/official';
import { reachedAt } from '../../features/releases/serverCheck';

/**
 * The readers of the projects' own answers (features/releases/official.ts), on answers shaped
 * as each project publishes them (their public pages and APIs, as tests/fakes/releaseSources.ts
 * serves them to the API suite): a well-formed answer gives the version, address and checksum
 * to pin; an empty, malformed or wrong-format one is a CheckProblem in words, never a crash and
 * never a pin of something else.
 */

const SHA1 = '5f3d1ab7c0a4e2b9d8c7f6e5a4b3c2d1e0f9a8b7';
const SHA256 = '9b2f0c6a1d4e7f8a3b5c2d9e0f1a6b7c8d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a';
const OTHER256 = 'aa'.repeat(32);

/** The problem `run` is refused with: a CheckProblem, not any other error. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckProblem);
    return (error as CheckProblem).message;
  }
  throw new Error('not refused');
}

/** A project's hosts as a map of addresses to answers; any other address is a 404. */
function hosts(answers: Record<string, string>) {
  const asked: string[] = [];
  const read = (url: string) => {
    asked.push(url);
    const answer = answers[url];
    if (answer === undefined)
      return Promise.reject(
        new CheckProblem(`${new URL(url).host} answered HTTP 404 for ${new URL(url).pathname}`),
      );
    return Promise.resolve(answer);
  };
  return { asked, read };
}

describe('versions', () => {
  it('compares dotted versions by number', () => {
    expect(compareVersions('6.10', '6.9')).toBeGreaterThan(0);
    expect(compareVersions('1.6.9', '1.6.11')).toBeLessThan(0);
    expect(compareVersions('5.0', '5.0.0')).toBe(0);
  });
});

describe('WordPress: the version-check API and the .sha1 of the archive', () => {
  // api.wordpress.org/core/version-check/1.7/: the current release first, older branches'
  // security releases after it.
  const versionCheck = JSON.stringify({
    offers: [
      {
        response: 'upgrade',
        download: 'https://downloads.wordpress.org/release/wordpress-6.8.3.zip',
        locale: 'en_US',
        packages: { full: 'https://downloads.wordpress.org/release/wordpress-6.8.3.zip' },
        current: '6.8.3',
        version: '6.8.3',
        php_version: '7.2.24',
        mysql_version: '5.5.5',
      },
      { response: 'autoupdate', current: '6.0.11', version: '6.0.11' },
    ],
    translations: [],
  });

  it('takes the newest offered version', () => {
    expect(wordpressVersion(versionCheck)).toBe('6.8.3');
    const later = { offers: [{ version: '6.9' }, { version: '6.10' }, { version: '6.9.1' }] };
    expect(wordpressVersion(JSON.stringify(later))).toBe('6.10');
  });

  it('refuses an answer that is not the version check', () => {
    expect(refusal(() => wordpressVersion(''))).toBe('WordPress’s version check is not JSON');
    expect(refusal(() => wordpressVersion('<html>Service unavailable</html>'))).toBe(
      'WordPress’s version check is not JSON',
    );
    for (const bare of ['null', '[]', '"6.8.3"', '683'])
      expect(refusal(() => wordpressVersion(bare))).toBe(
        'WordPress’s version check is not the JSON object it should be',
      );
    for (const none of ['{}', '{"offers":[]}', '{"offers":{"version":"6.8.3"}}'])
      expect(refusal(() => wordpressVersion(none))).toBe(
        'WordPress’s version check offers no release',
      );
    // Offers without a version this panel can read (a path, a number, nothing) pin nothing.
    for (const offers of [[null, 'x'], [{ version: 683 }], [{ version: '../../etc/passwd' }]])
      expect(refusal(() => wordpressVersion(JSON.stringify({ offers })))).toBe(
        'WordPress’s version check names no version this panel can read',
      );
  });

  it('reads the .sha1: a bare SHA-1, lower-cased', () => {
    expect(checksumIn(`${SHA1}\n`, 40, 'wordpress-6.8.3.tar.gz.sha1')).toBe(SHA1);
    expect(checksumIn(SHA1.toUpperCase(), 40, 'wordpress-6.8.3.tar.gz.sha1')).toBe(SHA1);
  });

  it('refuses a .sha1 without a SHA-1: empty, a page, another hash', () => {
    for (const text of ['', '\n', '<html><body>Not Found</body></html>', SHA256, SHA1.slice(1)])
      expect(refusal(() => checksumIn(text, 40, 'wordpress-6.8.3.tar.gz.sha1'))).toBe(
        'wordpress-6.8.3.tar.gz.sha1 holds no SHA-1 checksum',
      );
  });

  it('names the archive and its published SHA-1 (the check hashes the download itself)', async () => {
    const { asked, read } = hosts({
      'https://api.wordpress.org/core/version-check/1.7/': versionCheck,
      'https://wordpress.org/wordpress-6.8.3.tar.gz.sha1': SHA1,
    });
    expect(await latestOf('wordpress', read)).toEqual({
      version: '6.8.3',
      url: 'https://wordpress.org/wordpress-6.8.3.tar.gz',
      format: 'tar.gz',
      checksum: { algorithm: 'sha1', hex: SHA1 },
      size: null,
    });
    expect(asked).toEqual([
      'https://api.wordpress.org/core/version-check/1.7/',
      'https://wordpress.org/wordpress-6.8.3.tar.gz.sha1',
    ]);
  });
});

describe('Nextcloud: the releases listing and <file>.sha256', () => {
  // download.nextcloud.com/server/releases/: an Apache index of every file of every release.
  const listing = [
    '<html><head><title>Index of /server/releases</title></head><body><pre>',
    ...[
      'latest-30.tar.bz2',
      'latest.tar.bz2',
      'nextcloud-30.0.9.tar.bz2',
      'nextcloud-31.0.9.tar.bz2',
      'nextcloud-31.0.9.tar.bz2.asc',
      'nextcloud-31.0.9.tar.bz2.sha256',
      'nextcloud-31.0.10.zip',
      'nextcloud-32.0.0rc1.tar.bz2',
    ].map((n) => `<a href="${n}">${n}</a>  2025-10-09 12:00  245M`),
    '</pre></body></html>',
  ].join('\n');

  it('takes the newest stable .tar.bz2, not a zip-only or release-candidate one', () => {
    expect(nextcloudVersion(listing)).toBe('31.0.9');
    expect(nextcloudVersion('<a href="/server/releases/nextcloud-31.0.10.tar.bz2">x</a>')).toBe(
      '31.0.10',
    );
  });

  it('refuses a listing without a release', () => {
    for (const html of ['', '<html><body>Forbidden</body></html>', '{"version":"31.0.9"}'])
      expect(refusal(() => nextcloudVersion(html))).toBe(
        'Nextcloud’s releases listing names no version this panel can read',
      );
  });

  it('reads the .sha256 of the archive, and refuses one of another file', () => {
    const file = 'nextcloud-31.0.9.tar.bz2.sha256';
    expect(checksumIn(`${SHA256}  nextcloud-31.0.9.tar.bz2\n`, 64, file)).toBe(SHA256);
    expect(checksumIn(`${SHA256.toUpperCase()} *nextcloud-31.0.9.tar.bz2`, 64, file)).toBe(SHA256);
    expect(checksumIn(`SHA256 (nextcloud-31.0.9.tar.bz2) = ${SHA256}`, 64, file)).toBe(SHA256);
    // A list of several files: the line of this one, wherever it is.
    expect(
      checksumIn(
        `${OTHER256}  nextcloud-31.0.9.zip\n${SHA256}  releases/nextcloud-31.0.9.tar.bz2\n`,
        64,
        file,
      ),
    ).toBe(SHA256);
    expect(refusal(() => checksumIn(`${OTHER256}  nextcloud-30.0.9.tar.bz2\n`, 64, file))).toBe(
      `${file} gives the SHA-256 of nextcloud-30.0.9.tar.bz2, not of nextcloud-31.0.9.tar.bz2`,
    );
  });

  it('refuses a .sha256 without a SHA-256: empty, a page, a SHA-1 or SHA-512', () => {
    const file = 'nextcloud-31.0.9.tar.bz2.sha256';
    for (const text of [
      '',
      '<!DOCTYPE html><title>404 Not Found</title>',
      `${SHA1}  nextcloud-31.0.9.tar.bz2`,
      `${SHA256}${SHA256}  nextcloud-31.0.9.tar.bz2`,
      `${SHA256.slice(2)}zz  nextcloud-31.0.9.tar.bz2`,
    ])
      expect(refusal(() => checksumIn(text, 64, file))).toBe(`${file} holds no SHA-256 checksum`);
  });

  it('names the archive and its SHA-256', async () => {
    const base = 'https://download.nextcloud.com/server/releases';
    const { read } = hosts({
      [`${base}/`]: listing,
      [`${base}/nextcloud-31.0.9.tar.bz2.sha256`]: `${SHA256}  nextcloud-31.0.9.tar.bz2\n`,
    });
    expect(await latestOf('nextcloud', read)).toEqual({
      version: '31.0.9',
      url: `${base}/nextcloud-31.0.9.tar.bz2`,
      format: 'tar.bz2',
      checksum: { algorithm: 'sha256', hex: SHA256 },
      size: null,
    });
  });

  it('pins nothing when the checksum file is missing', async () => {
    const base = 'https://download.nextcloud.com/server/releases';
    const { read } = hosts({ [`${base}/`]: listing });
    await expect(latestOf('nextcloud', read)).rejects.toThrow(
      'download.nextcloud.com answered HTTP 404 for /server/releases/nextcloud-31.0.9.tar.bz2.sha256',
    );
  });
});

describe('phpMyAdmin: version.json and the .sha256 on files.phpmyadmin.net', () => {
  // www.phpmyadmin.net/home_page/version.json
  const versionJson = JSON.stringify({
    version: '5.2.2',
    date: '2025-01-21',
    releases: [
      { version: '5.2.2', date: '2025-01-21', php_versions: '>=7.2,<8.5', mysql_versions: '>=5.5' },
    ],
  });

  it('takes `version`', () => {
    expect(phpmyadminVersion(versionJson)).toBe('5.2.2');
  });

  it('refuses an answer without a readable version', () => {
    expect(refusal(() => phpmyadminVersion(''))).toBe('phpMyAdmin’s version.json is not JSON');
    expect(refusal(() => phpmyadminVersion('null'))).toBe(
      'phpMyAdmin’s version.json is not the JSON object it should be',
    );
    for (const text of [
      '{}',
      '{"version":5.2}',
      '{"version":""}',
      '{"version":"5.2.2/../../x"}',
      '{"releases":[{"version":"5.2.2"}]}',
    ])
      expect(refusal(() => phpmyadminVersion(text))).toBe(
        'phpMyAdmin’s version.json names no version this panel can read',
      );
  });

  it('names the all-languages archive and its SHA-256', async () => {
    const url =
      'https://files.phpmyadmin.net/phpMyAdmin/5.2.2/phpMyAdmin-5.2.2-all-languages.tar.gz';
    const { read } = hosts({
      'https://www.phpmyadmin.net/home_page/version.json': versionJson,
      [`${url}.sha256`]: `${SHA256}  phpMyAdmin-5.2.2-all-languages.tar.gz\n`,
    });
    expect(await latestOf('phpmyadmin', read)).toEqual({
      version: '5.2.2',
      url,
      format: 'tar.gz',
      checksum: { algorithm: 'sha256', hex: SHA256 },
      size: null,
    });
  });

  it('refuses the checksum of another language pack', async () => {
    const url =
      'https://files.phpmyadmin.net/phpMyAdmin/5.2.2/phpMyAdmin-5.2.2-all-languages.tar.gz';
    const { read } = hosts({
      'https://www.phpmyadmin.net/home_page/version.json': versionJson,
      [`${url}.sha256`]: `${SHA256}  phpMyAdmin-5.2.2-english.tar.gz\n`,
    });
    await expect(latestOf('phpmyadmin', read)).rejects.toThrow(
      'phpMyAdmin-5.2.2-all-languages.tar.gz.sha256 gives the SHA-256 of phpMyAdmin-5.2.2-english.tar.gz, not of phpMyAdmin-5.2.2-all-languages.tar.gz',
    );
  });
});

describe('Moodle: the latest-release page and <file>.sha256', () => {
  // download.moodle.org/releases/latest/: each supported branch's .tgz and .zip, and the
  // moving "latest" packages.
  const page = [
    '<a href="https://download.moodle.org/download.php/stable405/moodle-4.5.6.tgz">moodle-4.5.6.tgz</a>',
    '<a href="https://download.moodle.org/download.php/stable500/moodle-5.0.2.tgz">moodle-5.0.2.tgz</a>',
    '<a href="https://download.moodle.org/download.php/stable500/moodle-5.0.2.zip">moodle-5.0.2.zip</a>',
    '<a href="https://download.moodle.org/download.php/direct/stable500/moodle-latest-500.tgz">latest</a>',
  ].join('\n');

  it('takes the newest numbered .tgz and its branch', () => {
    expect(moodleRelease(page)).toEqual({ branch: 'stable500', version: '5.0.2' });
  });

  it('refuses a page without a numbered release', () => {
    for (const html of [
      '',
      '<html>Maintenance</html>',
      '<a href="https://download.moodle.org/download.php/stable500/moodle-latest-500.tgz">x</a>',
      '<a href="https://download.moodle.org/download.php/stable500/moodle-5.0.2.zip">x</a>',
    ])
      expect(refusal(() => moodleRelease(html))).toBe('Moodle’s download page links to no release');
  });

  it('names the direct download and its SHA-256', async () => {
    const url = 'https://download.moodle.org/download.php/direct/stable500/moodle-5.0.2.tgz';
    const { read } = hosts({
      'https://download.moodle.org/releases/latest/': page,
      [`${url}.sha256`]: `${SHA256}  moodle-5.0.2.tgz\n`,
    });
    expect(await latestOf('moodle', read)).toEqual({
      version: '5.0.2',
      url,
      format: 'tgz',
      checksum: { algorithm: 'sha256', hex: SHA256 },
      size: null,
    });
  });

  it('refuses an empty .sha256', async () => {
    const url = 'https://download.moodle.org/download.php/direct/stable500/moodle-5.0.2.tgz';
    const { read } = hosts({
      'https://download.moodle.org/releases/latest/': page,
      [`${url}.sha256`]: '',
    });
    await expect(latestOf('moodle', read)).rejects.toThrow(
      'moodle-5.0.2.tgz.sha256 holds no SHA-256 checksum',
    );
  });
});

describe('Joomla and Roundcube: the latest GitHub release and its asset’s digest', () => {
  /** A GitHub "latest release" answer: the signature first, decoys, then the package. */
  function release(repo: string, tag: string, assets: Record<string, unknown>[]) {
    return JSON.stringify({
      url: `https://api.github.com/repos/${repo}/releases/1`,
      tag_name: tag,
      name: tag,
      draft: false,
      prerelease: false,
      assets: assets.map((a) => ({
        browser_download_url: `https://github.com/${repo}/releases/download/${tag}/${String(a.name)}`,
        content_type: 'application/octet-stream',
        state: 'uploaded',
        ...a,
      })),
    });
  }
  const joomla = (full: Record<string, unknown> = {}) =>
    release('joomla/joomla-cms', '5.3.4', [
      { name: 'Joomla_5.3.4-Stable-Update_Package.zip', size: 9_000, digest: `sha256:${OTHER256}` },
      {
        name: 'Joomla_5.3.4-Stable-Full_Package.tar.gz',
        size: 9_500,
        digest: `sha256:${OTHER256}`,
      },
      {
        name: 'Joomla_5.3.4-Stable-Full_Package.zip',
        size: 30_551_234,
        digest: `sha256:${SHA256}`,
        ...full,
      },
    ]);
  const roundcube = (complete: Record<string, unknown> = {}) =>
    release('roundcube/roundcubemail', '1.6.11', [
      { name: 'roundcubemail-1.6.11-complete.tar.gz.asc', size: 833, digest: null },
      { name: 'roundcubemail-1.6.11.tar.gz', size: 4_000, digest: `sha256:${OTHER256}` },
      {
        name: 'roundcubemail-1.6.11-complete.tar.gz',
        size: 7_654_321,
        digest: `sha256:${SHA256.toUpperCase()}`,
        ...complete,
      },
    ]);
  const JOOMLA = [/^Joomla_(\d[\d.]*)-Stable-Full_Package\.zip$/, 'Joomla'] as const;
  const JOOMLA_FILE = 'Joomla_<version>-Stable-Full_Package.zip';
  const ROUNDCUBE = [/^roundcubemail-(\d[\d.]*)-complete\.tar\.gz$/, 'Roundcube'] as const;
  const ROUNDCUBE_FILE = 'roundcubemail-<version>-complete.tar.gz';

  it('takes the full package, its size and the SHA-256 GitHub published', () => {
    expect(githubAsset(joomla(), ...JOOMLA, JOOMLA_FILE)).toEqual({
      version: '5.3.4',
      url: 'https://github.com/joomla/joomla-cms/releases/download/5.3.4/Joomla_5.3.4-Stable-Full_Package.zip',
      format: 'zip',
      checksum: { algorithm: 'sha256', hex: SHA256 },
      size: 30_551_234,
    });
    expect(githubAsset(roundcube(), ...ROUNDCUBE, ROUNDCUBE_FILE)).toEqual({
      version: '1.6.11',
      url: 'https://github.com/roundcube/roundcubemail/releases/download/1.6.11/roundcubemail-1.6.11-complete.tar.gz',
      format: 'tar.gz',
      checksum: { algorithm: 'sha256', hex: SHA256 },
      size: 7_654_321,
    });
  });

  it('refuses a package without a SHA-256 digest (older uploads have none)', () => {
    for (const digest of [null, undefined, '', `sha512:${SHA256}${SHA256}`, `sha256:${SHA1}`])
      expect(refusal(() => githubAsset(roundcube({ digest }), ...ROUNDCUBE, ROUNDCUBE_FILE))).toBe(
        'Roundcube’s release file roundcubemail-1.6.11-complete.tar.gz has no published SHA-256',
      );
  });

  it('refuses a release without the package', () => {
    const without = release('joomla/joomla-cms', '5.3.4', [
      { name: 'Joomla_5.3.4-Stable-Update_Package.zip', size: 9_000, digest: `sha256:${SHA256}` },
    ]);
    const message = 'Joomla’s latest release has no Joomla_<version>-Stable-Full_Package.zip file';
    for (const text of [
      without,
      '{}',
      '{"assets":null}',
      '{"assets":[null,7,"Joomla_5.3.4-Stable-Full_Package.zip"]}',
      // Not a download GitHub serves over HTTPS: skipped, not pinned.
      joomla({ browser_download_url: 'http://github.com/x/Joomla_5.3.4-Stable-Full_Package.zip' }),
      joomla({ browser_download_url: null }),
    ])
      expect(refusal(() => githubAsset(text, ...JOOMLA, JOOMLA_FILE))).toBe(message);
  });

  it('refuses an answer that is not a release', () => {
    expect(refusal(() => githubAsset('', ...JOOMLA, JOOMLA_FILE))).toBe(
      'Joomla’s latest release is not JSON',
    );
    expect(
      refusal(() => githubAsset('{"message":"API rate limit exceeded"', ...JOOMLA, JOOMLA_FILE)),
    ).toBe('Joomla’s latest release is not JSON');
    expect(refusal(() => githubAsset('[]', ...JOOMLA, JOOMLA_FILE))).toBe(
      'Joomla’s latest release is not the JSON object it should be',
    );
  });

  it('keeps no size it cannot trust', () => {
    for (const size of [-1, 0, 1.5, '30551234', null])
      expect(githubAsset(joomla({ size }), ...JOOMLA, JOOMLA_FILE).size).toBeNull();
  });

  it('asks GitHub’s API for the latest release of each project', async () => {
    const { asked, read } = hosts({
      'https://api.github.com/repos/joomla/joomla-cms/releases/latest': joomla(),
      'https://api.github.com/repos/roundcube/roundcubemail/releases/latest': roundcube(),
    });
    expect((await latestOf('joomla', read)).version).toBe('5.3.4');
    expect((await latestOf('roundcube', read)).version).toBe('1.6.11');
    expect(asked).toEqual([
      'https://api.github.com/repos/joomla/joomla-cms/releases/latest',
      'https://api.github.com/repos/roundcube/roundcubemail/releases/latest',
    ]);
  });
});

describe('where the check reads', () => {
  it('reaches the official address, or the tests’ fake of its host (RELEASE_SOURCES_URL)', () => {
    const url = 'https://api.github.com/repos/joomla/joomla-cms/releases/latest?per_page=1';
    expect(reachedAt(url, null)).toBe(url);
    expect(reachedAt(url, 'http://127.0.0.1:4313/')).toBe(
      'http://127.0.0.1:4313/api.github.com/repos/joomla/joomla-cms/releases/latest?per_page=1',
    );
  });
});
