/**
 * The alerts' tables (migration 0040_alerts): a user's settings (one row, the defaults when
 * none), their alerts (the history), and the conditions the minute check has seen begin (a
 * disk above its threshold since...), which an alert waits on for its minutes.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';
import { flagColumn, withId } from '../../server/db/migrations/helpers';
import type { AlertKind } from './resource';

interface AlertSettingsTable {
  user_id: number;
  mail: Flag;
  /** Sealed with the install's key: a webhook URL often carries its own secret. */
  webhook_url: string | null;
  offline: Flag;
  offline_minutes: number;
  disk: Flag;
  disk_percent: number;
  disk_minutes: number;
  memory: Flag;
  memory_percent: number;
  memory_minutes: number;
  cert_expiry: Flag;
  task_failed: Flag;
  repeat_hours: number;
  updated_at: Timestamp;
}

interface AlertsTable {
  id: Generated<number>;
  user_id: number;
  kind: AlertKind;
  /** What the alert is about, as a key (`server:3`, `cert:12`, `task:40`). */
  subject_key: string;
  /** The same in words. */
  subject: string;
  detail: string;
  state: 'open' | 'closed';
  /** `kind subject_key` while open, null once closed: unique per user, one open alert each. */
  open_key: string | null;
  server_id: number | null;
  opened_at: Timestamp;
  closed_at: Timestamp | null;
  /** When it was last said (opened or repeated), for quiet repeats. */
  sent_at: Timestamp;
  repeats: Generated<number>;
}

interface AlertConditionsTable {
  server_id: number;
  kind: 'offline' | 'disk' | 'memory';
  since: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    alert_settings: AlertSettingsTable;
    alerts: AlertsTable;
    alert_conditions: AlertConditionsTable;
  }
}

export type AlertSettingsRow = Selectable<AlertSettingsTable>;
export type AlertRow = Selectable<AlertsTable>;
export type ConditionKind = AlertConditionsTable['kind'];

export const migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_settings')
      .addColumn('user_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('mail', 'integer', flagColumn(1))
      .addColumn('webhook_url', 'text')
      .addColumn('offline', 'integer', flagColumn(1))
      .addColumn('offline_minutes', 'integer', (c) => c.notNull())
      .addColumn('disk', 'integer', flagColumn(1))
      .addColumn('disk_percent', 'integer', (c) => c.notNull())
      .addColumn('disk_minutes', 'integer', (c) => c.notNull())
      .addColumn('memory', 'integer', flagColumn(1))
      .addColumn('memory_percent', 'integer', (c) => c.notNull())
      .addColumn('memory_minutes', 'integer', (c) => c.notNull())
      .addColumn('cert_expiry', 'integer', flagColumn(1))
      .addColumn('task_failed', 'integer', flagColumn(1))
      .addColumn('repeat_hours', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db, db.schema.createTable('alerts'))
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('subject_key', 'varchar(100)', (c) => c.notNull())
      .addColumn('subject', 'varchar(300)', (c) => c.notNull())
      .addColumn('detail', 'varchar(1000)', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('open_key', 'varchar(140)')
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('set null'))
      .addColumn('opened_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('closed_at', 'varchar(32)')
      .addColumn('sent_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('repeats', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // Two checks at once (a slow minute, two panels) open one alert: the second insert fails.
    await db.schema
      .createIndex('alerts_open')
      .on('alerts')
      .columns(['user_id', 'open_key'])
      .unique()
      .execute();
    await db.schema
      .createIndex('alerts_user')
      .on('alerts')
      .columns(['user_id', 'opened_at'])
      .execute();
    await db.schema.createIndex('alerts_state').on('alerts').columns(['state', 'kind']).execute();

    await db.schema
      .createTable('alert_conditions')
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('since', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_conditions_pk', ['server_id', 'kind'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('alert_conditions').execute();
    await db.schema.dropTable('alerts').execute();
    await db.schema.dropTable('alert_settings').execute();
  },
};
