/**
 * The app-release catalogue (issue 11): the admins pin, per installable app, the releases the
 * installers may fetch — the official URL, its SHA-256 (pinned here, never fetched from the
 * download host), its size and archive format, and one default per app.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { APPS, FORMATS, SHA256, mirrorProblem, urlProblem } from './urls';

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
    listFields: ['app', 'version', 'format', 'is_default', 'sha256'],
    formFields: ['app', 'version', 'url', 'sha256', 'size', 'format', 'is_default'],
    labels: { sha256: 'SHA-256', is_default: 'Default for the app', url: 'Official URL' },
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

export const resources = { 'app-releases': appReleases, 'app-release-mirror': releaseMirror };

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
};
