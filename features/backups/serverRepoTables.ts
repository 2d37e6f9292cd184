/**
 * The repositories of the panel's own backup storage (migration 0050_backup_repositories): one
 * row per restic repository the panel serves over restic's REST protocol. Policies and runs come
 * with their own tables later.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';

interface BackupRepositoriesTable {
  id: Generated<number>;
  /** The server backing up into it; null until policies tie it to one (or once it is removed). */
  server_id: number | null;
  /** The opaque name in URLs (`/restic/{uuid}/`), the Basic user and the directory's name. */
  uuid: string;
  /** sha256 (hex) of the 32-byte random secret: the secret itself is shown once, never stored. */
  secret_hash: string;
  created_at: Timestamp;
  /** The files' total size when last metered (serverRepoStore.ts `bytesUsed`). */
  /** bigint: PostgreSQL hands it back as text, SQLite as a number; read with Number(). */
  bytes_used: Generated<number | string>;
  metered_at: Timestamp | null;
}

declare module '../../server/db/schema' {
  interface Database {
    backup_repositories: BackupRepositoriesTable;
  }
}

export type BackupRepositoryRow = Selectable<BackupRepositoriesTable>;

export const repositoriesMigration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('backup_repositories'))
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('set null'))
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      // bigint: a repository outgrows 2 GiB.
      .addColumn('bytes_used', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('metered_at', 'varchar(32)')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('backup_repositories').execute();
  },
};
