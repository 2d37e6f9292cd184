import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { teamsMigrations } from './areas/teams';
import { dnsMigrations } from './areas/dns';
import { ticketsMigrations } from './areas/tickets';
import { referralsMigrations } from './areas/referrals';
import * as foundation from './migrations/0001_foundation';
import * as servers from './migrations/0002_servers';
import * as hardening from './migrations/0007_hardening';
import * as scrubOutbox from './migrations/0008_scrub_outbox';

/** Migrations in order; each is written once for both dialects with migrations/helpers.ts. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_servers': servers,
  // The account area (issue 4): 0003_teams, 0004_dns, 0005_tickets, 0006_referrals.
  ...teamsMigrations,
  ...dnsMigrations,
  ...ticketsMigrations,
  ...referralsMigrations,
  '0007_hardening': hardening,
  '0008_scrub_outbox': scrubOutbox,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works below the typed schema
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
}
