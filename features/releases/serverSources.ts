import type { Kysely } from 'kysely';
import type { Db } from '../../server/db/database';
import { HttpError } from '../../server/http/errors';
import { DEBIAN_APPS, type DebianApp, OFFICIAL_APPS, APP_LABELS, type App } from './urls';
import { OFFICIAL_FORMAT } from './official';
import type { AppRelease, AppSourceStatus } from './resource';

/**
 * The catalogue's sources (issue 22): a fresh panel offers every installer. The migration adds
 * the source kind and seeds one official source per app with a release, and Debian's package
 * for WordPress, phpMyAdmin and Roundcube; the app's default is Debian's where there is one
 * (it works offline), else the official source (usable once a check pinned a version). An app
 * that had a default already keeps it.
 */
export const sourcesMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('app_releases')
      .addColumn('source', 'varchar(16)', (c) => c.notNull().defaultTo('pinned'))
      .execute();
    await db.schema.alterTable('app_releases').addColumn('checked_at', 'varchar(32)').execute();
    // A migration's db is untyped by design; these tables have the panel's current shape here.
    const typed = db as unknown as Db;
    const defaults = new Set(
      (
        await typed.selectFrom('app_releases').select('app').where('is_default', '=', 1).execute()
      ).map((r) => r.app),
    );
    const at = new Date().toISOString();
    const rows = OFFICIAL_APPS.flatMap((app) => {
      const debian = (DEBIAN_APPS as readonly string[]).includes(app);
      const free = !defaults.has(app);
      const base = { app, url: '', sha256: '', size: null, created_at: at, updated_at: at };
      return [
        // Not usable before a check: no version, no hash.
        {
          ...base,
          version: '',
          format: OFFICIAL_FORMAT[app],
          source: 'official',
          is_default: free && !debian ? 1 : 0,
        },
        ...(debian
          ? [
              {
                ...base,
                version: 'debian',
                format: 'tar.gz',
                source: 'debian',
                is_default: free ? 1 : 0,
              },
            ]
          : []),
      ];
    });
    await typed.insertInto('app_releases').values(rows).execute();
  },
  async down(db: Kysely<unknown>) {
    // As in `up`: the migration's untyped db, for a table of the panel's current shape.
    const typed = db as unknown as Db;
    await typed.deleteFrom('app_releases').where('source', '!=', 'pinned').execute();
    await db.schema.alterTable('app_releases').dropColumn('checked_at').execute();
    await db.schema.alterTable('app_releases').dropColumn('source').execute();
  },
};

export const isDebianApp = (app: App): app is DebianApp =>
  (DEBIAN_APPS as readonly string[]).includes(app);

/** Why a catalogue entry cannot be installed from, or null when it can. */
export function unusable(release: AppRelease): string | null {
  if (release.source === 'debian')
    return isDebianApp(release.app) ? null : `Debian has no package of ${APP_LABELS[release.app]}`;
  if (release.source === 'official' && !release.sha256)
    return `No release of ${APP_LABELS[release.app]} is pinned yet: an admin checks for new releases under Admin → App releases`;
  return release.sha256 && release.url ? null : 'The release has no address or SHA-256';
}

/** What an admin may not do to a source the catalogue knows itself (its official, Debian's). */
export function keptSource(release: AppRelease, doing: 'edit' | 'delete'): void {
  if (release.source === 'pinned') return;
  const what = release.source === 'debian' ? 'Debian’s package' : 'The official source';
  throw new HttpError(
    409,
    doing === 'edit'
      ? `${what} is not edited by hand: check for new releases, or make another source the default`
      : `${what} stays in the catalogue: make another source the default instead`,
  );
}

/** What an install of an app uses now, and what its users are told of it. */
export interface AppSource {
  /** The entry an install fetches (or copies, from Debian); null when none is usable. */
  release: AppRelease | null;
  /** `GET app-sources`' entry: usable or not, and why not. */
  status: AppSourceStatus;
}

/**
 * Whether `app` can be installed, and from which source: the one decision behind both the
 * installers (they install from `release`, or refuse with `status.reason`) and `GET app-sources`
 * (each install page's notice). `entries` are the app's catalogue entries, its default first,
 * then the newest: the first usable one is used; when none is, the default's problem is the
 * reason. Node.js installs without a release.
 */
export function sourceOf(app: App, entries: readonly AppRelease[]): AppSource {
  if (app === 'nodejs')
    return {
      release: null,
      status: { app, usable: true, source: null, version: null, reason: null },
    };
  const release = entries.find((r) => r.app === app && unusable(r) === null) ?? null;
  if (release)
    return {
      release,
      status: {
        app,
        usable: true,
        source: release.source,
        version: release.source === 'debian' ? null : release.version,
        reason: null,
      },
    };
  const first = entries.find((r) => r.app === app);
  return {
    release: null,
    status: {
      app,
      usable: false,
      source: null,
      version: null,
      reason:
        (first && unusable(first)) ??
        `No release of ${APP_LABELS[app]} is in the catalogue: an admin adds one under Admin → App releases`,
    },
  };
}
