import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../server/db/dialect';
import { withId } from '../../server/db/migrations/helpers';
import { MAIN_PLANS } from './seed';
import type { BizplansTable } from './serverTables';

/** 0060_bizplans: the packages, seeded with the main plans of spec s.9 under their ids. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('bizplans'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('description', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('monthly_price', 'integer', (c) => c.notNull())
    .addColumn('annual_price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_servers', 'integer')
    .addColumn('max_webapps', 'integer')
    .addColumn('backup_storage_gb', 'integer')
    .addColumn('max_team_members', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  const at = new Date().toISOString();
  // A migration's db is untyped by design (the schema of its time): typed for its own table.
  await (db as unknown as Kysely<{ bizplans: BizplansTable }>)
    .insertInto('bizplans')
    .values(
      MAIN_PLANS.map((p) => ({
        ...p,
        kind: 'main' as const,
        currency: 'USD',
        active: p.active ? 1 : 0,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  // The seeds named their ids; PostgreSQL's identity would hand out 1 next (SQLite follows max).
  if (isPostgres(db))
    await sql`alter table bizplans alter column id restart with ${sql.lit(MAIN_PLANS.length + 1)}`.execute(
      db,
    );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bizplans').execute();
}
