import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { featureMigrations } from '../features';
import * as foundation from './migrations/0001_foundation';
import * as servers from './migrations/0002_servers';
import * as hardening from './migrations/0007_hardening';
import * as scrubOutbox from './migrations/0008_scrub_outbox';
import * as taskOps from './migrations/0009_task_ops';
import * as accountsManaged from './migrations/0012_accounts_managed';
import * as rootPasswordAsked from './migrations/0013_root_password_asked';
import * as activityWho from './migrations/0014_activity_who';
import * as adminUsersIndexes from './migrations/0066_admin_users_indexes';
import { jobsMigration } from '../jobs/tables';

/** Migrations in order; each is written once for both dialects with migrations/helpers.ts. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_servers': servers,
  '0007_hardening': hardening,
  '0008_scrub_outbox': scrubOutbox,
  '0009_task_ops': taskOps,
  '0012_accounts_managed': accountsManaged,
  '0013_root_password_asked': rootPasswordAsked,
  '0014_activity_who': activityWho,
  '0031_jobs': jobsMigration,
  '0066_admin_users_indexes': adminUsersIndexes,
  // The feature folders' own (features/<name>/server.ts), named so they sort after these.
  ...featureMigrations,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works below the typed schema
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Feature folders number their migrations on their own: two may share a number, and one
  // may land after a later-numbered one ran; their tables are their own, so order across
  // features does not matter.
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
}
