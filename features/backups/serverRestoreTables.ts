/**
 * What a replace-restore kept (migration 0054_backup_restores): the previous app folder
 * (`<app>.before-restore-<stamp>`) or database (`<db>_before_<stamp>`) a restore swapped out,
 * until the user keeps the restore (`backups.drop-previous` removes it: `dropped`). Written by
 * the restore job when the op answers `previous`; listed in the policy's GET.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';
import type { RestoreKind, RestoreState } from './schemas';

export interface BackupRestoresTable {
  id: Generated<number>;
  /** Who restored. */
  user_id: number;
  /** The policy whose file was restored (its page lists the kept copy). */
  backup_id: number;
  /** The file (run) restored. */
  run_id: number;
  /** The server the copy is kept on (the restore's destination). */
  server_id: number;
  kind: RestoreKind;
  /** files: the app's system user, who owns the kept folder; database: null. */
  sys_user: string | null;
  /** The kept folder's absolute path, or the kept database's name. */
  previous: string;
  state: RestoreState;
  created_at: Timestamp;
  dropped_at: Timestamp | null;
}

interface RestoreTables {
  backup_restores: BackupRestoresTable;
}

declare module '../../server/db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends RestoreTables {}
}

export type BackupRestoreRow = Selectable<BackupRestoresTable>;

export const restoresMigration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('backup_restores'))
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      // The policy's deletion takes its records (the kept copies stay on the server).
      .addColumn('backup_id', 'integer', (c) =>
        c.notNull().references('backup_policies.id').onDelete('cascade'),
      )
      .addColumn('run_id', 'integer', (c) => c.notNull())
      .addColumn('server_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('sys_user', 'varchar(64)')
      .addColumn('previous', 'varchar(4096)', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('dropped_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('backup_restores_backup')
      .on('backup_restores')
      .columns(['backup_id', 'state'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('backup_restores').execute();
  },
};
