/**
 * The tables of backups (migration 0051_backups): the account's storage targets, the policies
 * (the spec's `{backupId}`), their runs (the spec's storage files), one restic repository per
 * (server, target), and the credit of the panel's storage with its ledger and metered use.
 *
 * A policy and its store keep their server's id without a foreign key: a removed server's
 * policies are switched off and their files stay (restorable into another server's app).
 */
import {
  type ColumnDefinitionBuilder,
  type Generated,
  type Kysely,
  type Selectable,
  sql,
} from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';
import { flagColumn, withId } from '../../server/db/migrations/helpers';
import type { BackupFrequency, BackupType, RunStatus, TargetKind } from './schemas';

export interface BackupTargetsTable {
  id: Generated<number>;
  user_id: number;
  kind: Exclude<TargetKind, 'panel'>;
  name: string;
  /** Where, without credentials (`s3:https://host/bucket/prefix`, `sftp:user@host:/path`). */
  location: string;
  /** The last four of the access key, or the host key's type: never the secret. */
  hint: string;
  /** JSON of the kind's credentials (S3 keys, region, CA; SFTP's pinned host key), sealed. */
  credentials: string;
  created_at: Timestamp;
}

export interface BackupPoliciesTable {
  id: Generated<number>;
  user_id: number;
  /** No foreign key: the policy outlives a removed server (switched off, files kept). */
  server_id: number;
  type: BackupType;
  webapp_id: number | null;
  database_id: number | null;
  /** The app's or database's name when the policy was made (the files keep it). */
  subject: string;
  /** null: the panel's own storage. */
  target_id: number | null;
  frequency: BackupFrequency;
  at: string;
  weekday: number;
  day: number;
  timezone: string;
  keep_last: number;
  keep_daily: number;
  keep_weekly: number;
  keep_monthly: number;
  /** JSON array of exclude patterns. */
  excludes: string;
  upload_limit_kib: number | null;
  gentle: Flag;
  enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BackupRunsTable {
  id: Generated<number>;
  backup_id: number;
  status: RunStatus;
  trigger: 'schedule' | 'manual';
  snapshot_id: string | null;
  files: number | null;
  /** bigint: PostgreSQL hands it back as text, SQLite as a number; read with Number(). */
  size_bytes: number | string | null;
  /** bigint, like size_bytes. */
  added_bytes: number | string | null;
  duration_ms: number | null;
  error: string | null;
  task_id: number | null;
  verified_at: Timestamp | null;
  removed: Generated<Flag>;
  started_at: Timestamp | null;
  ended_at: Timestamp | null;
  created_at: Timestamp;
}

export interface BackupStoresTable {
  id: Generated<number>;
  /** The server backing up into it (no foreign key: the files outlive the server). */
  server_id: number;
  /** null: the panel's own storage. */
  target_id: number | null;
  /**
   * The account the repository's bytes count against: the target's owner, or for the panel's
   * storage the server's owner when it was made (a team member's policies use the owner's).
   */
  user_id: number;
  /** S3 or SFTP: the repository without credentials (`s3:https://host/bucket/<dir>`). */
  location: string | null;
  /** The panel storage's `backup_repositories` row and its uuid; null on S3 and SFTP. */
  repository_id: number | null;
  repository_uuid: string | null;
  /** The panel storage's REST secret (the URL's password), sealed. */
  rest_secret: string | null;
  /** restic's repository password, sealed. */
  password: string;
  /** When `restic init` succeeded (by the first run); null before. */
  initialized_at: Timestamp | null;
  created_at: Timestamp;
}

export interface BackupCreditLedgerTable {
  id: Generated<number>;
  user_id: number;
  /** bigint: bytes granted (positive) or taken (negative). */
  delta_bytes: number | string;
  reason: string;
  /** The admin's name, or `metering` / `plan`. */
  by: string;
  admin_id: number | null;
  created_at: Timestamp;
}

export interface BackupUsageTable {
  user_id: number;
  /** bigint. */
  used_bytes: number | string;
  metered_at: Timestamp;
}

export interface BackupsTables {
  backup_targets: BackupTargetsTable;
  backup_policies: BackupPoliciesTable;
  backup_runs: BackupRunsTable;
  backup_stores: BackupStoresTable;
  backup_credit_ledger: BackupCreditLedgerTable;
  backup_usage: BackupUsageTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends BackupsTables {}
}

export type BackupTargetRow = Selectable<BackupTargetsTable>;
export type BackupPolicyRow = Selectable<BackupPoliciesTable>;
export type BackupRunRow = Selectable<BackupRunsTable>;
export type BackupStoreRow = Selectable<BackupStoresTable>;

const userRef = (c: ColumnDefinitionBuilder) =>
  c.notNull().references('users.id').onDelete('cascade');
/** A target's rows go with it (a removal is refused while a policy uses it; an account's go). */
const targetRef = (c: ColumnDefinitionBuilder) =>
  c.references('backup_targets.id').onDelete('cascade');

export const backupsMigration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('backup_targets'))
      .addColumn('user_id', 'integer', userRef)
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('location', 'varchar(600)', (c) => c.notNull())
      .addColumn('hint', 'varchar(200)', (c) => c.notNull())
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('backup_targets_user')
      .on('backup_targets')
      .column('user_id')
      .execute();

    await withId(db, db.schema.createTable('backup_policies'))
      .addColumn('user_id', 'integer', userRef)
      .addColumn('server_id', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('webapp_id', 'integer')
      .addColumn('database_id', 'integer')
      .addColumn('subject', 'varchar(255)', (c) => c.notNull())
      .addColumn('target_id', 'integer', targetRef)
      .addColumn('frequency', 'varchar(16)', (c) => c.notNull())
      .addColumn('at', 'varchar(5)', (c) => c.notNull())
      .addColumn('weekday', 'integer', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
      .addColumn('keep_last', 'integer', (c) => c.notNull())
      .addColumn('keep_daily', 'integer', (c) => c.notNull())
      .addColumn('keep_weekly', 'integer', (c) => c.notNull())
      .addColumn('keep_monthly', 'integer', (c) => c.notNull())
      .addColumn('excludes', 'text', (c) => c.notNull())
      .addColumn('upload_limit_kib', 'integer')
      .addColumn('gentle', 'integer', flagColumn(1))
      .addColumn('enabled', 'integer', flagColumn(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('backup_policies_server')
      .on('backup_policies')
      .column('server_id')
      .execute();
    await db.schema
      .createIndex('backup_policies_user')
      .on('backup_policies')
      .column('user_id')
      .execute();

    await withId(db, db.schema.createTable('backup_runs'))
      .addColumn('backup_id', 'integer', (c) =>
        c.notNull().references('backup_policies.id').onDelete('cascade'),
      )
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
      .addColumn('snapshot_id', 'varchar(64)')
      .addColumn('files', 'integer')
      .addColumn('size_bytes', 'bigint')
      .addColumn('added_bytes', 'bigint')
      .addColumn('duration_ms', 'integer')
      .addColumn('error', 'varchar(2000)')
      .addColumn('task_id', 'integer')
      .addColumn('verified_at', 'varchar(32)')
      .addColumn('removed', 'integer', flagColumn(0))
      .addColumn('started_at', 'varchar(32)')
      .addColumn('ended_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('backup_runs_backup')
      .on('backup_runs')
      .columns(['backup_id', 'created_at'])
      .execute();

    await withId(db, db.schema.createTable('backup_stores'))
      .addColumn('server_id', 'integer', (c) => c.notNull())
      .addColumn('target_id', 'integer', targetRef)
      .addColumn('user_id', 'integer', userRef)
      .addColumn('repository_id', 'integer', (c) =>
        c.references('backup_repositories.id').onDelete('set null'),
      )
      .addColumn('location', 'varchar(700)')
      .addColumn('repository_uuid', 'varchar(36)')
      .addColumn('rest_secret', 'varchar(400)')
      .addColumn('password', 'varchar(400)', (c) => c.notNull())
      .addColumn('initialized_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    // One repository per (server, target); NULL (the panel's storage) is distinct in a unique
    // index on both dialects, so the panel's storage has its own partial index.
    await db.schema
      .createIndex('backup_stores_target')
      .on('backup_stores')
      .columns(['server_id', 'target_id'])
      .unique()
      .where(sql.ref('target_id'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('backup_stores_panel')
      .on('backup_stores')
      .column('server_id')
      .unique()
      .where(sql.ref('target_id'), 'is', null)
      .execute();

    await withId(db, db.schema.createTable('backup_credit_ledger'))
      .addColumn('user_id', 'integer', userRef)
      .addColumn('delta_bytes', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'varchar(500)', (c) => c.notNull())
      .addColumn('by', 'varchar(255)', (c) => c.notNull())
      .addColumn('admin_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('backup_credit_ledger_user')
      .on('backup_credit_ledger')
      .column('user_id')
      .execute();

    await db.schema
      .createTable('backup_usage')
      .addColumn('user_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('used_bytes', 'bigint', (c) => c.notNull())
      .addColumn('metered_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'backup_usage',
      'backup_credit_ledger',
      'backup_stores',
      'backup_runs',
      'backup_policies',
      'backup_targets',
    ])
      await db.schema.dropTable(table).execute();
  },
};
