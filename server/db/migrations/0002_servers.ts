import type { Kysely } from 'kysely';
import { withId } from './helpers';

/** The agent and the servers issue: keys, install events, activity, stats, users, SSH keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column a statement.
  for (const [column, type] of [
    ['agent_key_hash', 'varchar(64)'],
    ['install_key', 'varchar(64)'],
    ['pending_name', 'varchar(100)'],
    ['hostname', 'varchar(253)'],
    ['kernel_version', 'varchar(200)'],
    ['agent_version', 'varchar(50)'],
    ['last_seen_at', 'varchar(32)'],
    ['live_json', 'text'],
  ] as const) {
    await db.schema.alterTable('servers').addColumn(column, type).execute();
  }
  await db.schema
    .createIndex('servers_agent_key')
    .on('servers')
    .column('agent_key_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('servers_install_key')
    .on('servers')
    .column('install_key')
    .unique()
    .execute();

  await withId(db, db.schema.createTable('server_events'))
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('event', 'varchar(500)', (c) => c.notNull())
    .addColumn('code', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('server_events_server')
    .on('server_events')
    .column('server_id')
    .execute();

  await withId(db, db.schema.createTable('server_activity'))
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message', 'varchar(500)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('server_activity_server')
    .on('server_activity')
    .columns(['server_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('server_stats')
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    /** Seconds a sample covers: 60 (kept a day) or 1800 (kept 30 days). */
    .addColumn('resolution', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('cpu', 'real', (c) => c.notNull())
    .addColumn('load', 'real', (c) => c.notNull())
    .addColumn('memory_used', 'real', (c) => c.notNull())
    .addColumn('memory_total', 'real', (c) => c.notNull())
    .addColumn('disk_used', 'real', (c) => c.notNull())
    .addColumn('disk_total', 'real', (c) => c.notNull())
    .addColumn('rx_rate', 'real', (c) => c.notNull())
    .addColumn('tx_rate', 'real', (c) => c.notNull())
    .addPrimaryKeyConstraint('server_stats_pk', ['server_id', 'resolution', 'at'])
    .execute();

  await withId(db, db.schema.createTable('sysusers'))
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('user_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('quota_hard', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota_soft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('sysusers_server_name', ['server_id', 'user_name'])
    .execute();

  await withId(db, db.schema.createTable('pubkeys'))
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('user_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(100)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('pubkeys_server_user_key', ['server_id', 'user_name', 'fingerprint'])
    .execute();

  await db.schema
    .createTable('server_transfers')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('from_user_id', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('to_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('processed_at', 'varchar(32)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'server_transfers',
    'pubkeys',
    'sysusers',
    'server_stats',
    'server_activity',
    'server_events',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('servers_install_key').execute();
  await db.schema.dropIndex('servers_agent_key').execute();
  for (const column of [
    'live_json',
    'last_seen_at',
    'agent_version',
    'kernel_version',
    'hostname',
    'pending_name',
    'install_key',
    'agent_key_hash',
  ]) {
    await db.schema.alterTable('servers').dropColumn(column).execute();
  }
}
