/**
 * FTP accounts (spec "FTP"): logins of one web app, each shut in the app's folder or a folder
 * inside it. Pure-FTPd virtual users (PureDB): no system account per login; files written over
 * FTP belong to the app's system user. The panel keeps the desired accounts and the password
 * only as a SHA-512 crypt hash until the server has it; the agent writes the PureDB line itself.
 */
import { z } from 'zod';
import { managedState } from '../../resources/managedState';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { passwordHash, systemUserName } from '../../resources/agent/validators';
import { APP_NAME } from '../webapps/api';
import { FTP_USERNAME, ROOT_DIRECTORY, directoryProblem, normalizeDirectory } from './names';

export const ftpUsername = z
  .string()
  .trim()
  .regex(
    FTP_USERNAME,
    'Lower-case letters, digits, _ . and -, starting with a letter (3 to 32 characters)',
  );

/** A password, hashed by the panel before anything leaves it: long enough, one line. */
export const ftpPassword = z
  .string()
  .min(12, 'At least 12 characters')
  .max(128, 'At most 128 characters')
  .refine((p) => !/[\r\n\0]/.test(p), 'One line, no line breaks');

/** A folder of the app, relative to it: `.` is the app's own folder. */
export const ftpDirectory = z
  .string()
  .trim()
  .max(200, 'At most 200 characters')
  .transform(normalizeDirectory)
  .superRefine((value, ctx) => {
    const problem = directoryProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const ftpSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  /** Relative to the app's folder; `.` is the app's folder itself. */
  directory: z.string(),
  /** Where the login is shut in on the server. */
  path: z.string(),
  ...managedState,
});
export type FtpAccount = z.infer<typeof ftpSchema>;

export const ftpInput = z.object({
  username: ftpUsername,
  password: ftpPassword,
  directory: ftpDirectory.default(ROOT_DIRECTORY),
});

/** PUT: a new password, a new folder, or both (an empty password keeps the one it has). */
export const ftpChange = z.object({
  password: z.union([z.literal(''), ftpPassword]).optional(),
  directory: ftpDirectory.optional(),
});

const app = 'ftp/webstacks/{appId}/servers/{sid}/users/{uid}';
const one = 'ftp/{ftpId}/webstacks/{appId}/servers/{sid}/users/{uid}';

export const ftp = defineResource({
  name: 'ftp',
  label: 'FTP Accounts',
  parent: 'app',
  params: { ftpId: 'id' },
  idParam: 'ftpId',
  schema: ftpSchema,
  input: ftpInput,
  paths: { list: app, one },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'username'],
      summary: "The app's FTP accounts; `?sync=true` compares them with the server's",
      filters: z.object({ sync: z.enum(['true', 'false']).optional() }),
    },
    // Not in the spec's list; the change-password dialog reads the account it changes.
    get: { guard: 'self' },
    create: {
      guard: 'self',
      summary: "Add an FTP account shut in the app's folder (or a folder inside it)",
    },
    update: {
      guard: 'self',
      method: 'PUT',
      summary: 'Change the password (when given) and/or the folder',
      body: ftpChange,
    },
    delete: {
      guard: 'self',
      summary:
        "Remove the account; `?delhome=true` also deletes its folder (never the app's own folder)",
      query: z.object({ delhome: z.enum(['true', 'false']).optional() }),
    },
  },
  example: { username: 'deploy', password: 'a long ftp password', directory: '.' },
  ui: {
    listFields: ['username', 'directory', 'status'],
    formFields: ['username', 'password', 'directory'],
    widgets: { password: { kind: 'password', length: 20 } },
    labels: { username: 'User name', password: 'Password', directory: 'Folder' },
    help: {
      username: 'Lower-case letters, digits, _ . and -; unique on the server',
      password: 'Shown once: the panel keeps only a hash',
      directory:
        "Inside the app's folder; . is the app's folder itself. Made when it does not exist",
    },
    recordRepresentation: 'username',
  },
});

export const resources = { ftp };

/** Where an account lives: the app (by its user and name) and the folder inside it. */
const account = z.object({
  /** The panel's id, kept on the server's line: a line of another account is never touched. */
  id: z.number().int().positive(),
  username: ftpUsername,
  sys_user: systemUserName,
  app: z.string().regex(APP_NAME),
  directory: ftpDirectory,
});

export const ops = {
  /**
   * Makes or changes the account (its folder made as the app's user when missing). Without a
   * hash the account keeps its password; a missing account then cannot be made (field
   * `password`). Sets Pure-FTPd up for virtual users on first use.
   */
  'ftp.set': op(
    account.extend({ password_hash: passwordHash.nullable() }),
    z.object({ path: z.string() }),
  ),
  /** Takes the account out; `delete_dir` also deletes its folder (never the app's own). */
  'ftp.remove': op(account.extend({ delete_dir: z.boolean() }), z.object({ removed: z.boolean() })),
  /** The panel's accounts as the server holds them. */
  'ftp.list': op(
    z.object({}),
    z.array(z.object({ id: z.number().int(), username: z.string(), home: z.string() })),
  ),
};
