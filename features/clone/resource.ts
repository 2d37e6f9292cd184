/**
 * The agent side of cloning a web app (issue 11, research §3): the ops the panel's
 * `clone-webapp` task calls, each reporting `progress(event, code)` with codes 0..10 over its
 * own work (the task scales them into its phases). No routes here: the panel side owns them.
 */
import { z } from 'zod';
import { op } from '../../resources/agent/opDef';
import { defineResource } from '../../resources/define';
import { systemUserName } from '../../resources/agent/validators';
import { DB_NAME } from '../databases/api';
import { installAnswer, installAppName, installUi } from '../installers/api';
import { domainList } from '../webapps/api';

const sysUser = z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'A system user name');

/** An app folder: /home/<user>/apps/<name> (checked again, without links, by the agent). */
const appDir = z
  .string()
  .max(300)
  .regex(/^\/home\/[a-z_][a-z0-9_-]{0,31}\/apps\/[a-z][a-z0-9-]{0,39}$/, '/home/<user>/apps/<app>');

/** Caches and build leftovers a clone does without: relative to the app folder. */
export const CLONE_EXCLUDES = [
  'wp-content/cache',
  'wp-content/uploads/cache',
  'wp-content/upgrade',
  'node_modules/.cache',
  'storage/framework/cache',
  '.git',
] as const;

const dbName = z.string().regex(DB_NAME, 'A database name (letters, digits, _)');

/** A search-and-replace pair: any text but the NUL byte, never part of SQL (sent as hex). */
const pairText = z
  .string()
  .min(1)
  .max(500)
  .regex(/^[^\0]*$/);

/**
 * A column the replace leaves alone: `table.column`, the table optionally `*suffix` (any
 * table ending so, `*_posts.guid` for every site of a multisite).
 */
export const SKIP_COLUMN = /^(\*?[A-Za-z0-9_]{1,64})\.([A-Za-z0-9_]{1,64})$/;
export const DEFAULT_SKIP_COLUMNS = ['*_posts.guid'];

/** A clone: the new app's name, domains and user; its PHP, stack and type are the source's. */
export const cloneInput = z.object({
  name: installAppName,
  domains: domainList,
  /** The clone's system user (the source's own, or another of the server's). */
  sys_user: systemUserName,
});

/**
 * `POST clone-webapp/webstacks/{appId}/servers/{sid}/users/{uid}` (spec "Web apps"): the app's
 * files and databases copied to a new app on its own domain, addresses rewritten (PHP
 * serialized data kept valid), as a task whose events `clone-events` lists.
 */
export const cloneWebapp = defineResource({
  name: 'clone-webapp',
  label: 'Clone',
  parent: 'app',
  schema: installAnswer,
  input: cloneInput,
  paths: { list: 'clone-webapp/webstacks/{appId}/servers/{sid}/users/{uid}' },
  ops: {
    create: {
      guard: 'self',
      summary:
        "Clone the app: files and databases to a new app and domain, addresses rewritten; follow the task's events in clone-events",
      response: installAnswer,
    },
  },
  example: { name: 'shop-copy', domains: ['copy.example.com'], sys_user: 'alice' },
  ui: {
    formFields: ['name', 'domains', 'sys_user'],
    widgets: { domains: installUi.widgets.domains, sys_user: installUi.widgets.sys_user },
    labels: { name: 'New app name', domains: 'Domains of the copy', sys_user: 'System user' },
    help: {
      domains: 'One per line; the addresses of the source are rewritten to the first',
      sys_user: 'The copy runs as this user: the source’s own, or another',
    },
  },
});

export const resources = { 'clone-webapp': cloneWebapp };

export const ops = {
  /**
   * Copies an app's folder into another user's (empty) app folder: read as `from_user`, written
   * as `to_user` (tar to tar through the agent), so the copy holds only what the source user
   * could read and root never opens a file of either.
   */
  'clone.files': op(
    z.object({
      from_user: sysUser,
      from_dir: appDir,
      to_user: sysUser,
      to_dir: appDir,
      exclude: z.array(z.enum(CLONE_EXCLUDES)).max(CLONE_EXCLUDES.length).default([]),
    }),
    z.object({
      bytes: z.number().int(),
      files: z.number().int(),
      /** Entries left out: unreadable to the source user, links leaving the app, sockets, devices. */
      left_out: z.number().int(),
    }),
    3_600_000,
  ),

  /**
   * Copies a database into another (existing, empty) one with mariadb-dump | mariadb, the
   * pairs replaced on the way (the source untouched), PHP-serialized values kept valid.
   */
  'clone.database': op(
    z.object({
      from: dbName,
      to: dbName,
      pairs: z.array(z.tuple([pairText, pairText])).max(32),
      skip_columns: z.array(z.string().regex(SKIP_COLUMN)).max(64).default(DEFAULT_SKIP_COLUMNS),
    }),
    z.object({
      tables: z.number().int(),
      rows_changed: z.number().int(),
      values_skipped: z.number().int(),
      /** Tables (`t`) and columns (`t.c`) whose names are outside the allowlist: left as they are. */
      refused: z.array(z.string()),
    }),
    3_600_000,
  ),
};
