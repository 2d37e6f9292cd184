import type { Kysely } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/**
 * 0064_payment_methods: gateway customers, saved payment methods, setups in progress, the
 * payments the panel started (their invoices) and the webhooks already received (one row per gateway event: the unique key deduplicates).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('gateway_customers'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gateway', 'varchar(10)', (c) => c.notNull())
    .addColumn('customer_ref', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('gateway_customers_user_gateway', ['user_id', 'gateway'])
    .execute();
  await withId(db, db.schema.createTable('payment_methods'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gateway', 'varchar(10)', (c) => c.notNull())
    .addColumn('ref', 'varchar(255)', (c) => c.notNull())
    .addColumn('brand', 'varchar(40)', (c) => c.notNull())
    .addColumn('last4', 'varchar(4)', (c) => c.notNull())
    .addColumn('exp_month', 'integer')
    .addColumn('exp_year', 'integer')
    .addColumn('is_paypal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email', 'varchar(255)')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('payment_methods_gateway_ref', ['gateway', 'ref'])
    .execute();
  await db.schema
    .createIndex('payment_methods_user')
    .on('payment_methods')
    .column('user_id')
    .execute();
  await withId(db, db.schema.createTable('payment_setups'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gateway', 'varchar(10)', (c) => c.notNull())
    .addColumn('setup_ref', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('payment_setups_gateway_ref', ['gateway', 'setup_ref'])
    .execute();
  await withId(db, db.schema.createTable('webhook_events'))
    .addColumn('gateway', 'varchar(10)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(100)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('processed_at', 'varchar(32)')
    .addUniqueConstraint('webhook_events_gateway_event', ['gateway', 'event_id'])
    .execute();
  await withId(db, db.schema.createTable('gateway_payments'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gateway', 'varchar(10)', (c) => c.notNull())
    .addColumn('payment_ref', 'varchar(255)', (c) => c.notNull())
    .addColumn('invoice_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('gateway_payments_gateway_ref', ['gateway', 'payment_ref'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('gateway_payments').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('payment_setups').execute();
  await db.schema.dropTable('payment_methods').execute();
  await db.schema.dropTable('gateway_customers').execute();
}
