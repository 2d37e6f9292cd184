/**
 * The recovery key's tables (migration 0052_backup_recovery_keys): one key per account, sealed
 * (the panel adds it to each new repository of the account), and which key id it has in each
 * store, so a new recovery key can remove the one before.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

export interface BackupRecoveryKeysTable {
  user_id: number;
  /** The key itself, sealed: shown once when made, then only ever handed to restic. */
  secret: string;
  created_at: Timestamp;
}

export interface BackupStoreKeysTable {
  store_id: number;
  /** restic's id of the recovery key in that repository. */
  key_id: string;
  /** `created_at` of the recovery key it holds (an older one is replaced). */
  key_created_at: Timestamp;
  added_at: Timestamp;
}

interface RecoveryTables {
  backup_recovery_keys: BackupRecoveryKeysTable;
  backup_store_keys: BackupStoreKeysTable;
}

declare module '../../server/db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends RecoveryTables {}
}

export type RecoveryKeyRow = Selectable<BackupRecoveryKeysTable>;

export const recoveryKeysMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('backup_recovery_keys')
      .addColumn('user_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('secret', 'varchar(400)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('backup_store_keys')
      .addColumn('store_id', 'integer', (c) =>
        c.primaryKey().references('backup_stores.id').onDelete('cascade'),
      )
      .addColumn('key_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('key_created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('backup_store_keys').execute();
    await db.schema.dropTable('backup_recovery_keys').execute();
  },
};
