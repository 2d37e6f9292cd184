/**
 * Backups (spec s.7 "Backups", issue 24): policies (the spec's `{backupId}`) of a web app's
 * files or of one database, their files (a run's snapshot), the account's storage targets and
 * backup credit, and the admin's view. Every row is the account's, reached through a server the
 * user reaches; the agent ops run restic on the server with the repository handed over per call.
 */
import { z } from 'zod';
import { type ResourceDef, defineResource, listQuery } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { appName } from '../webapps/api';
import { databaseName } from '../databases/api';
import {
  BACKUP_TYPES,
  backupCreditSchema,
  backupDetailSchema,
  backupPolicyChange,
  backupPolicyInput,
  backupPolicySchema,
  backupRestoreSchema,
  backupRunSchema,
  backupStorageSchema,
  backupTargetInput,
  backupTargetRemoval,
  backupToggle,
  creditChangeBody,
  creditChangeQuery,
  excludeSchema,
  hostSchema,
  keepRestoreInput,
  removeFileQuery,
  restoreInput,
  retentionSchema,
  snapshotSchema,
  targetSchema,
} from './schemas';
import { backupRecoveryKey } from './recoveryResource';

declare module '../../resources/declaration' {
  interface QueryRowKinds {
    /** A policy of a server the user reaches (`?bid=` of backup-now, `?sid=` of remove-backups). */
    backups: 'user';
    /** A file (run) of such a policy (`file_id` of a restore or a removal). */
    'backup-files': 'user';
    /** A storage target of the account (`target_id` of a policy). */
    'backup-targets': 'user';
  }
}

const byType = z.object({ type: z.enum(BACKUP_TYPES).optional() });
const taskAnswer = z.object({ task_id: z.number().int(), file_id: z.number().int() });

/** The policies: one per app's files or per database, with a schedule, a target, retention. */
export const backups = defineResource({
  name: 'backups',
  label: 'Backups',
  // A policy is loaded through `{uid}`: one of a server that user reaches.
  parent: 'account',
  params: { backupId: 'id' },
  idParam: 'backupId',
  missing: 'No such backup',
  schema: backupPolicySchema,
  input: backupPolicyInput,
  paths: { list: 'backups/users/{uid}', one: 'backups/{backupId}/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'subject'],
      filters: byType,
      summary: "The user's backup policies of web apps or of databases (`type`)",
    },
    create: {
      guard: 'self',
      summary: 'A policy: what (an app or a database of a server), where, when, how long',
      bodyLoads: {
        server_id: { of: 'servers', missing: 'Pick one of your servers' },
        target_id: { of: 'backup-targets', missing: 'Pick one of your storages' },
      },
    },
    get: {
      guard: 'self',
      query: listQuery.pick({ page: true, perPage: true }),
      summary: 'The policy and a page of its files (runs), newest first',
      response: backupDetailSchema,
    },
    update: {
      method: 'PATCH',
      guard: 'self',
      body: backupPolicyChange,
      bodyLoads: { target_id: { of: 'backup-targets', missing: 'Pick one of your storages' } },
      summary: 'Change the schedule, storage, retention, excludes or limits',
    },
  },
  actions: {
    toggle: {
      method: 'PATCH',
      path: 'manage-backups/{backupId}/users/{uid}',
      guard: 'self',
      body: backupToggle,
      response: backupPolicySchema,
      summary: 'Switch the schedule on or off (the files stay)',
    },
    runNow: {
      method: 'PATCH',
      path: 'backup-now/users/{uid}',
      guard: 'self',
      query: z.object({ bid: z.coerce.number().int().positive() }),
      loads: { bid: 'backups' },
      response: taskAnswer,
      summary: 'Back up now: a run of the policy `bid`, followed in its task',
    },
    restore: {
      method: 'PATCH',
      path: 'restore-backups/users/{uid}',
      guard: 'self',
      body: restoreInput,
      bodyLoads: { file_id: { of: 'backup-files', missing: 'No such backup file' } },
      response: z.object({ task_id: z.number().int() }),
      summary:
        'Restore a file (snapshot): the whole app or database swapped in, into another, or one path',
    },
    keepRestore: {
      method: 'PATCH',
      path: 'keep-restores/{backupId}/users/{uid}',
      guard: 'self',
      body: keepRestoreInput,
      response: backupRestoreSchema,
      summary: 'Keep a restore of this backup: the previous folder or database it kept is removed',
    },
    removeFile: {
      method: 'DELETE',
      path: 'remove-backups/users/{uid}',
      guard: 'self',
      query: removeFileQuery,
      loads: { sid: 'backups', file_id: 'backup-files' },
      response: z.object({ id: z.number().int() }),
      summary: 'Delete one file (snapshot) of the policy `sid`',
    },
    removeAll: {
      method: 'DELETE',
      path: 'total-backups/{backupId}/users/{uid}',
      guard: 'self',
      response: z.object({ id: z.number().int(), files: z.number().int() }),
      summary: 'Delete the policy and every file it made',
    },
  },
  ui: {
    listFields: ['subject', 'server_name', 'schedule_text', 'health'],
    recordRepresentation: 'subject',
  },
});

/** A policy's files (runs): listed in the policy's detail, loaded by id for restores and removals. */
export const backupFiles = defineResource({
  name: 'backup-files',
  label: 'Backup files',
  parent: 'account',
  params: { fileId: 'id' },
  idParam: 'fileId',
  missing: 'No such backup file',
  schema: backupRunSchema,
  paths: {},
  ops: {},
  actions: {
    download: {
      method: 'GET',
      path: 'backup-files/{fileId}/download/users/{uid}',
      guard: 'self',
      summary: "The file's database dump (.sql) or app archive (.tar), streamed",
    },
  },
});

/** The account's storage targets (S3, SFTP; the panel's own storage is always there). */
export const backupTargets = defineResource({
  name: 'backup-targets',
  label: 'Backup storage',
  parent: 'account',
  params: { targetId: 'id' },
  idParam: 'targetId',
  missing: 'No such storage',
  schema: z.object({ id: z.number().int() }).passthrough(),
  paths: {},
  ops: {},
  actions: {
    storage: {
      method: 'GET',
      path: 'backup-storage/users/{uid}',
      guard: 'self',
      response: backupStorageSchema,
      summary: "The account's storages and what its kept files use on each",
    },
    setStorage: {
      method: 'PATCH',
      path: 'backup-storage/users/{uid}',
      guard: 'self',
      body: z.union([backupTargetRemoval, backupTargetInput]),
      response: backupStorageSchema,
      summary: 'Add or change an S3 or SFTP storage (checked first; secrets sealed), or remove one',
    },
  },
});

/** Backup credit: the allowance on the panel's storage, metered daily, and its ledger. */
export const backupCredit = defineResource({
  name: 'backup-credit',
  label: 'Backup credit',
  parent: 'account',
  schema: backupCreditSchema,
  paths: {},
  ops: {},
  actions: {
    get: {
      method: 'GET',
      path: 'backup-credit/users/{uid}',
      guard: 'self',
      staffMay: true,
      response: backupCreditSchema,
      summary: 'Credit and use of the panel storage, with the ledger (staff: any user)',
    },
    set: {
      method: 'POST',
      path: 'backup-credit/users/{uid}',
      // An account route is `self`; the handler lets only an admin (naming the user) set it.
      guard: 'self',
      query: z.object({ credit: z.coerce.number().min(0).max(100_000) }),
      response: backupCreditSchema,
      summary: "An admin sets the user's credit to `credit` GB (the difference is a ledger line)",
    },
  },
});

/** The admin's view of a user's backups and changes to their credit. */
export const adminBackups = defineResource({
  name: 'admin-backups',
  label: "A user's backups",
  scope: 'panel',
  schema: backupPolicySchema,
  paths: {},
  ops: {},
  actions: {
    list: {
      method: 'GET',
      path: 'admin/backups',
      guard: 'admin',
      query: z.object({
        uid: z.coerce.number().int().positive(),
        type: z.enum(BACKUP_TYPES).optional(),
      }),
      response: z.object({ data: z.array(backupPolicySchema), total: z.number().int() }),
      summary: "A user's backup policies of web apps or of databases",
    },
    credit: {
      method: 'PATCH',
      path: 'admin/backup-credit',
      guard: 'admin',
      query: creditChangeQuery,
      body: creditChangeBody,
      response: backupCreditSchema,
      summary: 'Add or remove backup credit of user `uid` (`type=add|remove`), with the reason',
    },
  },
});

export const resources = {
  backups,
  'backup-files': backupFiles,
  'backup-targets': backupTargets,
  'backup-credit': backupCredit,
  'admin-backups': adminBackups,
  'backup-recovery-key': backupRecoveryKey,
} as const satisfies Record<string, ResourceDef>;

// ---- Agent ops: restic on the server, the repository handed over with each call ----

const HOUR = 3_600_000;
const limits = {
  /** `--limit-upload`, KiB/s. */
  upload_limit_kib: z.number().int().min(16).nullable().default(null),
  /** `nice -n 19 ionice -c2 -n7`. */
  gentle: z.boolean().default(true),
};
/** Forget after a run that ended ok (storages the agent may delete from: S3, SFTP); else none. */
const retention = retentionSchema.nullable().default(null);

/** What a backup op answers: the run's end, never a thrown error for restic's own failures. */
export const backupOutcome = z.object({
  status: z.enum(['ok', 'partial', 'failed']),
  snapshot_id: z.string().nullable(),
  files: z.number().int().nullable(),
  size_bytes: z.number().int().nullable(),
  added_bytes: z.number().int().nullable(),
  duration_ms: z.number().int(),
  /** The failure's kind (agentResticErrors.ts) and words, or what `partial` left out. */
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  /** Snapshots retention removed (after an ok run with `retention`). */
  forgotten: z.array(z.string()).default([]),
});
export type BackupOutcome = z.infer<typeof backupOutcome>;

export const ops = {
  /** Backs up an app's folder (`~sys_user/apps/<app>`), tagged `app:<app_id>`, `policy:<id>`. */
  'backups.files': op(
    z.object({
      target: targetSchema,
      host: hostSchema,
      policy_id: z.number().int().positive(),
      app_id: z.number().int().positive(),
      sys_user: systemUserName,
      app: appName,
      excludes: z.array(excludeSchema).max(100).default([]),
      retention,
      ...limits,
    }),
    backupOutcome,
    12 * HOUR,
  ),
  /** Dumps a database straight into restic (`--stdin`); a failed dump leaves no snapshot. */
  'backups.database': op(
    z.object({
      target: targetSchema,
      host: hostSchema,
      policy_id: z.number().int().positive(),
      db_id: z.number().int().positive(),
      database: databaseName,
      retention,
      ...limits,
    }),
    backupOutcome,
    12 * HOUR,
  ),
  /**
   * Restores an app's snapshot: `replace` into a new folder beside the app, then swapped in
   * (the previous tree kept as `<app>.before-restore-<stamp>` until confirmed); `path`: one file
   * or folder back into place; into another app of this server with `to_*`.
   */
  'backups.restore-files': op(
    z.object({
      target: targetSchema,
      snapshot: snapshotSchema,
      mode: z.enum(['replace', 'path']),
      sys_user: systemUserName,
      app: appName,
      path: z.string().max(1024).nullable().default(null),
    }),
    z.object({
      files: z.number().int(),
      bytes: z.number().int(),
      /** Where the previous tree was kept (replace), to remove once the user confirms. */
      previous: z.string().nullable(),
    }),
    12 * HOUR,
  ),
  /**
   * Restores a database's snapshot into a new database, checks it against the snapshot, then
   * swaps it in table by table (`RENAME TABLE` in one statement); never drop-then-import. The
   * previous tables are kept in `<database>_before_<stamp>` until confirmed.
   */
  'backups.restore-database': op(
    z.object({
      target: targetSchema,
      snapshot: snapshotSchema,
      /** The database the dump was taken of (the file in the snapshot). */
      source: databaseName,
      /** The live database to swap into. */
      database: databaseName,
    }),
    z.object({ tables: z.number().int(), previous: databaseName.nullable() }),
    12 * HOUR,
  ),
  /** Removes what a confirmed restore kept (a previous tree or database). */
  'backups.drop-previous': op(
    z.object({
      sys_user: systemUserName.nullable().default(null),
      folder: z.string().max(4096).nullable().default(null),
      database: databaseName.nullable().default(null),
    }),
    z.object({ removed: z.boolean() }),
  ),
  /** `forget` of snapshots by id, then `prune` (S3 and SFTP; the panel prunes its own storage). */
  'backups.forget': op(
    z.object({ target: targetSchema, snapshots: z.array(snapshotSchema).min(1).max(1000) }),
    z.object({ removed: z.array(z.string()) }),
    2 * HOUR,
  ),
  /** `check`, with `--read-data-subset` when asked: damage found is `ok: false` with words. */
  'backups.check': op(
    z.object({
      target: targetSchema,
      read_data_subset: z
        .string()
        .regex(/^\d{1,3}\/\d{1,3}$/)
        .nullable()
        .default(null),
    }),
    z.object({ ok: z.boolean(), message: z.string() }),
    6 * HOUR,
  ),
  /**
   * A test restore: the snapshot into a scratch folder or database, compared with the snapshot
   * (files and bytes; a dump that imports completely), then removed.
   */
  'backups.test-restore': op(
    z.object({
      target: targetSchema,
      snapshot: snapshotSchema,
      type: z.enum(BACKUP_TYPES),
      /** With type database: the dump's database name. */
      source: databaseName.nullable().default(null),
    }),
    z.object({
      ok: z.boolean(),
      message: z.string(),
      files: z.number().int(),
      bytes: z.number().int(),
    }),
    6 * HOUR,
  ),
};
