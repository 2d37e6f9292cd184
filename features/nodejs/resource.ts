/**
 * Node.js one-click app (issue 11, spec `POST nodejs/servers/{sid}/users/{uid}`, research
 * hosting.md 2.4): a new web app of type nodejs, a port of the server's allocator, the code
 * cloned from git as the app's user, node run by supervisor as that user, nginx in front. No
 * release of the catalogue and no PHP: the code is the user's own.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { noArgs, op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { installAnswer, installAppName, installBase, installUi } from '../installers/api';
import {
  ARCHIVE_CHUNK_BASE64,
  MAX_ARCHIVE_BASE64,
  archiveUpload,
  entryFile,
  envMap,
  gitBranch,
  gitUrl,
} from './names';

/**
 * PHP does not run for a Node.js app, and nginx alone proxies it: neither field is asked. The
 * code's source is left out here: the form picks one (InstallNodejsPage.tsx).
 */
export const nodejsInstallBase = installBase.omit({ php_version: true, stack_type: true }).extend({
  /** The file node runs, relative to the app's code. */
  start: entryFile.default('server.js'),
  env: envMap,
});

/** The code from a git repository, or from an archive the user uploads: exactly one. */
export const nodejsInstallInput = nodejsInstallBase
  .extend({
    git_url: gitUrl.optional(),
    /** The branch or tag to clone; the repository's default when not given. */
    branch: gitBranch.optional(),
    archive: archiveUpload.optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.git_url && !body.archive)
      ctx.addIssue({
        code: 'custom',
        path: ['git_url'],
        message: 'A git repository, or an archive to upload',
      });
    if (body.git_url && body.archive)
      ctx.addIssue({
        code: 'custom',
        path: ['archive'],
        message: 'Either a git repository or an archive, not both',
      });
    if (body.archive && body.branch)
      ctx.addIssue({ code: 'custom', path: ['branch'], message: 'A branch is for git only' });
  });

const server = 'servers/{sid}/users/{uid}';

export const nodejsInstaller = defineResource({
  name: 'nodejs-install',
  label: 'Node.js',
  parent: 'server',
  schema: installAnswer,
  input: nodejsInstallInput,
  paths: { list: `nodejs/${server}` },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Install a Node.js app on a new web app: its code cloned from git or unpacked from an uploaded .tar.gz or .zip (base64, at most 100 MB), run by supervisor on a port of its own behind nginx; follow the task's events",
      response: installAnswer,
      // The archive travels in the body as base64; a larger body is refused with 413.
      bodyLimit: MAX_ARCHIVE_BASE64 + 1024 * 1024,
    },
  },
  ui: {
    formFields: [
      ...installUi.fields.filter((f) => f !== 'php_version' && f !== 'stack_type'),
      'git_url',
      'branch',
      'start',
    ],
    widgets: installUi.widgets,
    labels: {
      ...installUi.labels,
      git_url: 'Git repository',
      archive: 'Archive',
      branch: 'Branch or tag',
      start: 'Entry file',
    },
    help: {
      ...installUi.help,
      git_url: 'https:// address of a public repository',
      archive: 'A .tar.gz or .zip of the code, at most 100 MB',
      branch: "Empty: the repository's default branch",
      start: 'The file node runs, such as server.js; it must listen on the PORT it is given',
    },
  },
});

export const resources = { 'nodejs-install': nodejsInstaller };

const port = z.number().int().min(1024).max(65535);

export const ops = {
  /** The TCP ports the server listens on (`ss -Hltn`): the allocator skips them. */
  'node.ports': op(noArgs, z.object({ ports: z.array(z.number().int()) })),
  /**
   * Clones the code into the app (`<app>/current`) as the app's user, and installs its
   * dependencies with `npm ci --omit=dev` when it has a package-lock.json.
   */
  'node.fetch': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      git_url: gitUrl,
      branch: gitBranch.nullable(),
    }),
    z.object({ path: z.string(), commit: z.string(), npm: z.boolean() }),
    900_000,
  ),
  /**
   * Writes the app's supervisor program and starts it: RUNNING after its startsecs, and
   * answering HTTP on its port, or the program is taken back.
   */
  'node.start': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      entry: entryFile,
      port,
      env: envMap,
    }),
    z.object({ state: z.string(), pid: z.number().int() }),
    120_000,
  ),
  /**
   * Receives a piece of an uploaded archive (base64) at its byte offset into a file of root's
   * own: offset 0 starts it again, any other offset must be where the file ends.
   */
  'node.receive': op(
    z.object({
      app: installAppName,
      offset: z.number().int().min(0),
      data: z
        .string()
        .max(ARCHIVE_CHUNK_BASE64)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/),
    }),
    z.object({ bytes: z.number().int() }),
    120_000,
  ),
  /**
   * Checks the received archive (its size and SHA-256, then its listing: no absolute or `..`
   * paths, links, devices or setuid files), unpacks it as the app's user into `<app>/current`
   * (an archive of one folder: that folder's contents), and runs `npm ci --omit=dev` when it
   * has a package-lock.json. The received file is removed in any case.
   */
  'node.unpack': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      format: z.enum(['tgz', 'zip']),
      bytes: z.number().int().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
    z.object({ path: z.string(), files: z.number().int(), npm: z.boolean() }),
    900_000,
  ),
  /** Stops and removes the app's program (a supervisor job of the user's is never touched). */
  'node.remove': op(z.object({ app: installAppName }), z.object({ removed: z.boolean() }), 120_000),
};
