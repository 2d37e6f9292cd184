import type { Kysely } from 'kysely';
import { flagColumn, withId } from './helpers';

/** Accounts, sessions, logs, mail, and the first server/task tables later issues extend. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_admin', 'integer', flagColumn(0))
    .addColumn('is_admin_staff', 'integer', flagColumn(0))
    .addColumn('plan_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('api_key', 'varchar(64)', (c) => c.unique())
    .addColumn('api_secret_hash', 'varchar(64)')
    .addColumn('two_factor', 'integer', flagColumn(0))
    .addColumn('two_factor_method', 'varchar(8)')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('login_notif', 'integer', flagColumn(0))
    .addColumn('confirmed', 'integer', flagColumn(0))
    .addColumn('disabled', 'integer', flagColumn(0))
    .addColumn('referrer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('addr_1', 'varchar(200)')
    .addColumn('addr_2', 'varchar(200)')
    .addColumn('city', 'varchar(100)')
    .addColumn('company_name', 'varchar(200)')
    .addColumn('country', 'varchar(2)')
    .addColumn('postal_code', 'varchar(20)')
    .addColumn('state', 'varchar(100)')
    .addColumn('tax_num', 'varchar(50)')
    .addColumn('time_zone', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_photos')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await withId(db, db.schema.createTable('auth_logs'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auth_logs_user')
    .on('auth_logs')
    .columns(['user_id', 'created_at'])
    .execute();

  await withId(db, db.schema.createTable('account_activity'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message', 'varchar(500)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_activity_user')
    .on('account_activity')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('one_time_codes_user')
    .on('one_time_codes')
    .columns(['user_id', 'purpose'])
    .execute();

  await withId(db, db.schema.createTable('outbox'))
    .addColumn('to_addr', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(32)')
    .addColumn('error', 'text')
    .execute();

  await withId(db, db.schema.createTable('servers'))
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(253)', (c) => c.notNull())
    .addColumn('ip4', 'varchar(15)')
    .addColumn('provider', 'varchar(64)')
    .addColumn('connected', 'integer', flagColumn(0))
    .addColumn('is_available', 'integer', flagColumn(1))
    .addColumn('is_shared', 'integer', flagColumn(0))
    .addColumn('is_accessible', 'integer', flagColumn(1))
    .addColumn('os_version', 'varchar(100)')
    .addColumn('timezone', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('servers_user').on('servers').column('user_id').execute();

  await withId(db, db.schema.createTable('tasks'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_user_kind').on('tasks').columns(['user_id', 'kind']).execute();

  await withId(db, db.schema.createTable('task_events'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('event', 'varchar(500)', (c) => c.notNull())
    .addColumn('code', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_events_task').on('task_events').column('task_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'task_events',
    'tasks',
    'servers',
    'outbox',
    'one_time_codes',
    'account_activity',
    'auth_logs',
    'sessions',
    'user_photos',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
