import { describe, expect, it } from 'vitest';
import type { AppRelease } from '../../features/releases/resource';
import { sourceOf, unusable } from '../../features/releases/serverSources';

/**
 * The one decision behind the installers and `GET app-sources` (serverSources.ts, sourceOf):
 * which catalogue entry an install of an app uses, and what its install page says when none
 * can be. The entries come default first, then the newest (features/releases/server.ts).
 */
let id = 0;
const entry = (fields: Partial<AppRelease> & Pick<AppRelease, 'app' | 'source'>): AppRelease => ({
  id: ++id,
  version: '',
  url: '',
  sha256: '',
  size: null,
  format: 'tar.gz',
  is_default: false,
  checked_at: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  ...fields,
});
const unchecked = entry({ app: 'nextcloud', source: 'official', is_default: true });
const checked = entry({
  app: 'nextcloud',
  source: 'official',
  version: '31.0.9',
  url: 'https://download.nextcloud.com/server/releases/nextcloud-31.0.9.tar.bz2',
  sha256: 'ab'.repeat(32),
  is_default: true,
});
const byHand = entry({
  app: 'nextcloud',
  source: 'pinned',
  version: '30.0.9',
  url: 'https://mirror.example.org/nextcloud-30.0.9.tar.bz2',
  sha256: 'cd'.repeat(32),
});
const debian = entry({ app: 'wordpress', source: 'debian', version: 'debian', is_default: true });

describe('an app’s source', () => {
  it('is its default when the default is usable', () => {
    expect(sourceOf('nextcloud', [checked, byHand])).toEqual({
      release: checked,
      status: {
        app: 'nextcloud',
        usable: true,
        source: 'official',
        version: '31.0.9',
        reason: null,
      },
    });
    // Debian's package: the server's own package decides the version.
    expect(sourceOf('wordpress', [debian])).toEqual({
      release: debian,
      status: { app: 'wordpress', usable: true, source: 'debian', version: null, reason: null },
    });
  });

  it('is the next usable entry when the default is not (an official source never checked)', () => {
    expect(sourceOf('nextcloud', [unchecked, byHand])).toEqual({
      release: byHand,
      status: { app: 'nextcloud', usable: true, source: 'pinned', version: '30.0.9', reason: null },
    });
  });

  it('is none when no entry is usable: the default’s problem is the reason', () => {
    const none = sourceOf('nextcloud', [unchecked]);
    expect(none.release).toBeNull();
    expect(none.status).toEqual({
      app: 'nextcloud',
      usable: false,
      source: null,
      version: null,
      reason:
        'No release of Nextcloud is pinned yet: an admin checks for new releases under Admin → App releases',
    });
    const broken = entry({ app: 'joomla', source: 'pinned', version: '5.3.4', url: '' });
    expect(sourceOf('joomla', [broken]).status.reason).toBe(
      'The release has no address or SHA-256',
    );
  });

  it('is none, with the way to add one, when the catalogue has no entry of the app', () => {
    expect(sourceOf('moodle', [])).toEqual({
      release: null,
      status: {
        app: 'moodle',
        usable: false,
        source: null,
        version: null,
        reason:
          'No release of Moodle is in the catalogue: an admin adds one under Admin → App releases',
      },
    });
    // Another app's entries are not this app's.
    expect(sourceOf('moodle', [checked]).release).toBeNull();
  });

  it('is Debian’s package only for the apps Debian packages', () => {
    const moodle = entry({ app: 'moodle', source: 'debian', version: 'debian' });
    expect(unusable(moodle)).toBe('Debian has no package of Moodle');
    expect(sourceOf('moodle', [moodle]).status.usable).toBe(false);
  });

  it('needs no release for Node.js', () => {
    expect(sourceOf('nodejs', [])).toEqual({
      release: null,
      status: { app: 'nodejs', usable: true, source: null, version: null, reason: null },
    });
  });
});
