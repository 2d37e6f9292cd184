/**
 * The app-release catalogue (issue 11): the admins pin, per installable app, the releases the
 * installers may fetch — the official URL, its SHA-256 (pinned here, never fetched from the
 * download host), its size and archive format, and one default per app.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { APPS, DEBIAN_APPS, FORMATS, SHA256, SOURCES, mirrorProblem, urlProblem } from './urls';

/** An address of at most 500 characters, refused with `problem`'s words. */
const address = (problem: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .max(500)
    .superRefine((v, ctx) => {
      const why = problem(v);
      if (why) ctx.addIssue({ code: z.ZodIssueCode.custom, message: why });
    });

export const releaseUrl = address(urlProblem);

export const appReleaseSchema = z.object({
  id: z.number().int(),
  app: z.enum(APPS),
  version: z.string(),
  url: z.string(),
  sha256: z.string(),
  size: z.number().int().nullable(),
  format: z.enum(FORMATS),
  is_default: z.boolean(),
  /**
   * `pinned`: typed in by an admin; `official`: the project's own releases, pinned by "Check for
   * new releases"; `debian`: Debian's package on the managed server (no URL, no hash: apt
   * checks the package's signature).
   */
  source: z.enum(SOURCES),
  /** When "Check for new releases" last pinned this official source; null before. */
  checked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AppRelease = z.infer<typeof appReleaseSchema>;

export const appReleaseInput = z.object({
  app: z.enum(APPS, { message: `One of: ${APPS.join(', ')}` }),
  version: z
    .string()
    .trim()
    .regex(
      /^[0-9A-Za-z][0-9A-Za-z.+~_-]{0,31}$/,
      'A version such as 6.4.3 (letters, digits, . + ~ _ -)',
    ),
  url: releaseUrl,
  sha256: z
    .string()
    .trim()
    .toLowerCase()
    .regex(SHA256, 'The SHA-256 of the archive: 64 hexadecimal digits'),
  size: z
    .number()
    .int()
    .positive()
    .max(10 * 1024 ** 3)
    .nullable()
    .optional(),
  format: z.enum(FORMATS, { message: `One of: ${FORMATS.join(', ')}` }),
  is_default: z.boolean().default(false),
});

/** The catalogue (admin area): every admin call, no admin staff. */
export const appReleases = defineResource({
  name: 'app-releases',
  scope: 'panel',
  label: 'App releases',
  schema: appReleaseSchema,
  input: appReleaseInput,
  paths: { list: 'admin/app-releases', one: 'admin/app-releases/{id}' },
  ops: {
    list: { guard: 'admin', sort: ['app', 'version', 'created_at'], summary: 'The catalogue' },
    get: { guard: 'admin' },
    create: { guard: 'admin', summary: 'Pin a release of an app' },
    update: { guard: 'admin', method: 'PUT', summary: 'Change a pinned release' },
    delete: { guard: 'admin', summary: 'Take a release out of the catalogue' },
  },
  actions: {
    check: {
      method: 'POST',
      path: 'admin/app-releases/{id}/check',
      guard: 'admin',
      summary:
        'Check for new releases: an official source asks its project for the newest version and its published checksum, and pins both (409 with the reason when it cannot; the previous pin stays)',
      response: appReleaseSchema,
    },
    makeDefault: {
      method: 'PATCH',
      path: 'admin/app-releases/{id}',
      guard: 'admin',
      summary: 'Make this source the one its app installs from (the others of the app stop being)',
      body: z.object({ is_default: z.literal(true) }),
      response: appReleaseSchema,
    },
  },
  example: {
    app: 'wordpress',
    version: '6.4.3',
    url: 'https://wordpress.org/wordpress-6.4.3.tar.gz',
    sha256: 'a'.repeat(64),
    size: 23_000_000,
    format: 'tar.gz',
    is_default: true,
  },
  ui: {
    listFields: ['app', 'source', 'version', 'format', 'is_default', 'sha256'],
    formFields: ['app', 'version', 'url', 'sha256', 'size', 'format', 'is_default'],
    labels: {
      sha256: 'SHA-256',
      is_default: 'Default for the app',
      url: 'Official URL',
      source: 'Source',
    },
    help: {
      sha256: 'Pinned here: the download is refused when its hash differs',
      url: 'With a mirror set, fetched from <mirror>/<app>/<file name of this URL>',
    },
    recordRepresentation: 'version',
  },
});

/** The catalogue's mirror: a base address the installers fetch from instead of the official URLs. */
export const releaseMirrorSchema = z.object({
  /** Null: downloads come from the official URLs. */
  mirror: z.string().nullable(),
  /** When an admin last set or cleared it; null while never set. */
  updated_at: z.string().nullable(),
});
export type ReleaseMirror = z.infer<typeof releaseMirrorSchema>;

export const releaseMirrorInput = z.object({ mirror: address(mirrorProblem).nullable() });

const MIRROR_PATH = 'admin/app-releases-mirror';

/**
 * The mirror setting (admins only, no admin staff). Only where an archive comes from: its
 * SHA-256 stays the pinned one, so a mirror cannot change what is installed.
 */
export const releaseMirror = defineResource({
  name: 'app-release-mirror',
  scope: 'panel',
  label: 'App release mirror',
  schema: releaseMirrorSchema,
  paths: {},
  ops: {},
  actions: {
    get: {
      method: 'GET',
      path: MIRROR_PATH,
      guard: 'admin',
      summary: 'The mirror the installers download from (null: the official URLs)',
      response: releaseMirrorSchema,
    },
    set: {
      method: 'PUT',
      path: MIRROR_PATH,
      guard: 'admin',
      summary: 'Point the catalogue at a mirror (`<mirror>/<app>/<file>`), or clear it with null',
      body: releaseMirrorInput,
      response: releaseMirrorSchema,
    },
  },
});

/** Whether an app can be installed now, and why not: what a user's install page says first. */
export const appSourceStatusSchema = z.object({
  app: z.enum(APPS),
  usable: z.boolean(),
  /** The source an install uses (null when none is usable). */
  source: z.enum(SOURCES).nullable(),
  /** Its version; for Debian's package, the server's own package decides. */
  version: z.string().nullable(),
  /** Why the app cannot be installed (null when it can). */
  reason: z.string().nullable(),
});
export type AppSourceStatus = z.infer<typeof appSourceStatusSchema>;

/** Every signed-in user may read which apps can be installed (no URL or hash in it). */
export const appSources = defineResource({
  name: 'app-sources',
  label: 'App sources',
  schema: appSourceStatusSchema,
  paths: {},
  ops: {},
  actions: {
    list: {
      method: 'GET',
      path: 'app-sources',
      guard: 'user',
      summary: 'Which one-click apps can be installed now, and why not',
      response: z.object({ data: z.array(appSourceStatusSchema) }),
    },
  },
});

export const resources = {
  'app-releases': appReleases,
  'app-release-mirror': releaseMirror,
  'app-sources': appSources,
};

/** Where a fetched archive is unpacked: a path inside the user's home (checked by the agent). */
const destDir = z
  .string()
  .max(500)
  .regex(/^\/[^\0]*$/, 'An absolute path inside the user’s home');

export const ops = {
  /**
   * Downloads a pinned release into the agent's cache, refuses it unless its SHA-256 is the
   * pinned one, checks its listing (no absolute paths, `..`, links, devices, setuid; bounded
   * count and size) and unpacks it as `dest_user` into `dest_dir`, which must not exist yet.
   */
  'release.fetch': op(
    z.object({
      url: releaseUrl,
      sha256: z.string().regex(SHA256),
      format: z.enum(FORMATS),
      dest_user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/),
      dest_dir: destDir,
    }),
    z.object({ path: z.string(), files: z.number().int(), bytes: z.number().int() }),
    600_000,
  ),
  /**
   * Installs Debian's package of the app when the server lacks it (apt-get checks its
   * signature), then copies its files into `dest_dir` as `dest_user`, laid out as the project's
   * own archive: links followed, nothing pointing back into /etc or /var/lib.
   */
  'release.debian': op(
    z.object({
      app: z.enum(DEBIAN_APPS),
      dest_user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/),
      dest_dir: destDir,
    }),
    z.object({ path: z.string(), version: z.string(), installed: z.boolean() }),
    900_000,
  ),
};
