import type { Kysely } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/**
 * 0063_billing: subscriptions, invoices (+ lines, gapless counters per kind and year), payment
 * attempts and the manual rail's bank transfers. One invoice per (subscription, period start,
 * kind): two panels renewing the same subscription at once make one invoice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = 'varchar(32)';
  await withId(db, db.schema.createTable('subscriptions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.notNull())
    .addColumn('interval', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('pay_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('current_period_start', ts)
    .addColumn('current_period_end', ts)
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('canceled_at', ts)
    .addColumn('previous_subscription_id', 'integer')
    .addColumn('pending_plan_id', 'integer')
    .addColumn('pending_interval', 'varchar(8)')
    .addColumn('pending_invoice_id', 'integer')
    .addColumn('scheduled_plan_id', 'integer')
    .addColumn('scheduled_interval', 'varchar(8)')
    .addColumn('coupon_id', 'integer')
    .addColumn('coupon_redemption_id', 'integer')
    .addColumn('coupon_code', 'varchar(40)')
    .addColumn('coupon_terms', 'text')
    .addColumn('coupon_periods_left', 'integer')
    .addColumn('dunning_step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').column('user_id').execute();
  await db.schema
    .createIndex('subscriptions_status')
    .on('subscriptions')
    .columns(['status', 'current_period_end'])
    .execute();

  await withId(db, db.schema.createTable('invoices'))
    .addColumn('number', 'varchar(32)', (c) => c.unique())
    .addColumn('kind', 'varchar(12)', (c) => c.notNull())
    .addColumn('refers_to', 'integer', (c) => c.references('invoices.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'integer', (c) => c.references('subscriptions.id'))
    .addColumn('purpose', 'varchar(12)', (c) => c.notNull())
    .addColumn('plan_id', 'integer')
    .addColumn('interval', 'varchar(8)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('subtotal_minor', 'integer', (c) => c.notNull())
    .addColumn('discount_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('discount_label', 'varchar(200)')
    .addColumn('tax_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_rate_bp', 'integer')
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('buyer', 'text')
    .addColumn('seller', 'text')
    .addColumn('reason', 'varchar(500)')
    .addColumn('period_start', ts)
    .addColumn('period_end', ts)
    .addColumn('due_at', ts)
    .addColumn('paid_at', ts)
    .addColumn('voided_at', ts)
    .addColumn('finalized_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('invoices_subscription_period_kind', [
      'subscription_id',
      'period_start',
      'kind',
    ])
    .execute();
  await db.schema
    .createIndex('invoices_user')
    .on('invoices')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('invoices_status').on('invoices').column('status').execute();

  await withId(db, db.schema.createTable('invoice_lines'))
    .addColumn('invoice_id', 'integer', (c) =>
      c.notNull().references('invoices.id').onDelete('cascade'),
    )
    .addColumn('description', 'varchar(300)', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_minor', 'integer', (c) => c.notNull())
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoice_lines_invoice')
    .on('invoice_lines')
    .column('invoice_id')
    .execute();

  await db.schema
    .createTable('invoice_counters')
    .addColumn('kind', 'varchar(12)', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('next', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_counters_pk', ['kind', 'year'])
    .execute();

  await withId(db, db.schema.createTable('payments'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gateway', 'varchar(8)', (c) => c.notNull())
    .addColumn('gateway_payment_id', 'varchar(200)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'varchar(40)')
    .addColumn('message', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_invoice').on('payments').column('invoice_id').execute();
  await db.schema
    .createIndex('payments_gateway_ref')
    .on('payments')
    .columns(['gateway', 'gateway_payment_id'])
    .execute();

  await db.schema
    .createTable('manual_payments')
    .addColumn('gateway_payment_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('invoice_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('bank_reference', 'varchar(200)')
    .addColumn('paid_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'manual_payments',
    'payments',
    'invoice_counters',
    'invoice_lines',
    'invoices',
    'subscriptions',
  ])
    await db.schema.dropTable(table).execute();
}
