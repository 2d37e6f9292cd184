import { type Kysely, sql } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/**
 * Migration `0006_referrals` (the name existing databases have recorded). Referrals: earnings,
 * a balance row per referrer (the one row a withdrawal updates, so that concurrent requests
 * serialise on it), and withdrawal requests.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('referral_earnings'))
    .addColumn('referrer_id', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('referred_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('referral_earnings_referrer')
    .on('referral_earnings')
    .column('referrer_id')
    .execute();

  await db.schema
    .createTable('referral_accounts')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('earned_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    /** Pending plus paid requests; a rejected request gives its amount back. */
    .addColumn('withdrawn_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('referral_accounts_not_overdrawn', sqlCheck())
    .execute();

  await withId(db, db.schema.createTable('referral_withdrawals'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('details', 'varchar(500)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('processed_at', 'varchar(32)')
    .addColumn('processed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('referral_withdrawals_user')
    .on('referral_withdrawals')
    .columns(['user_id', 'created_at'])
    .execute();
}

/** The database itself refuses a balance below zero: a last line behind the conditional update. */
function sqlCheck() {
  return sql`withdrawn_cents <= earned_cents and withdrawn_cents >= 0`;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('referral_withdrawals').execute();
  await db.schema.dropTable('referral_accounts').execute();
  await db.schema.dropTable('referral_earnings').execute();
}
