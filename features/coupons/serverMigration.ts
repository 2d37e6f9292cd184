import type { Kysely } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/** 0061_coupons: coupons, and who redeemed each (once per user, by a unique key). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('coupons'))
    .addColumn('code', 'varchar(40)', (c) => c.notNull())
    .addColumn('code_key', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('percent_off', 'integer')
    .addColumn('amount_off', 'integer')
    .addColumn('currency', 'varchar(3)')
    .addColumn('duration', 'varchar(10)', (c) => c.notNull())
    .addColumn('duration_periods', 'integer')
    .addColumn('plan_ids', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('max_redemptions', 'integer')
    .addColumn('redeemed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('retired_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('coupon_redemptions'))
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.notNull())
    .addColumn('redeemed_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('coupon_redemptions_coupon_user', ['coupon_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('coupon_redemptions_user')
    .on('coupon_redemptions')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('coupon_redemptions').execute();
  await db.schema.dropTable('coupons').execute();
}
