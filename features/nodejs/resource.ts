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
import { installAnswer, installAppName, installBase, installUi } from '../installers/names';
import { entryFile, envMap, gitBranch, gitUrl } from './names';

/** PHP does not run for a Node.js app, and nginx alone proxies it: neither field is asked. */
export const nodejsInstallInput = installBase.omit({ php_version: true, stack_type: true }).extend({
  git_url: gitUrl,
  /** The branch or tag to clone; the repository's default when not given. */
  branch: gitBranch.optional(),
  /** The file node runs, relative to the app's code. */
  start: entryFile.default('server.js'),
  env: envMap,
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
        "Install a Node.js app on a new web app: its code cloned from git, run by supervisor on a port of its own behind nginx; follow the task's events",
      response: installAnswer,
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
      branch: 'Branch or tag',
      start: 'Entry file',
    },
    help: {
      ...installUi.help,
      git_url: 'https:// address of a public repository',
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
  /** Stops and removes the app's program (a supervisor job of the user's is never touched). */
  'node.remove': op(z.object({ app: installAppName }), z.object({ removed: z.boolean() }), 120_000),
};
