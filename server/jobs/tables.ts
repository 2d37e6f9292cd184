import type { Generated, Kysely } from 'kysely';
import { withId } from '../db/migrations/helpers';

/**
 * The job platform's tables. `jobs` is the SQLite runner's queue (on PostgreSQL pg-boss keeps
 * its own, in the `pgboss` schema, and this table stays empty); the others serve both.
 */
export interface JobsTable {
  id: Generated<number>;
  name: string;
  /** JSON: `{ payload, meta }` (meta: key, task, schedule slot). */
  data: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** ISO time on the panel's clock: not claimed before. */
  run_at: string;
  /** Runs started so far. */
  attempts: number;
  retry_limit: number;
  backoff_seconds: number;
  timeout_seconds: number;
  last_error: string | null;
  /** The panel process running it, and until when its claim holds (renewed while it runs). */
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  finished_at: string | null;
}

/** Idempotency keys, per job name: the second enqueue with a key does nothing. */
export interface JobKeysTable {
  name: string;
  key: string;
  created_at: string;
}

export interface SchedulesTable {
  id: Generated<number>;
  name: string;
  cron: string;
  timezone: string;
  job: string;
  /** JSON payload of each run. */
  payload: string;
  enabled: number;
  /** 1 for a schedule a feature declares (kept in step with the code at each start). */
  builtin: number;
  /** ISO: the latest slot taken, or when the schedule began; no slot before it runs. */
  last_slot: string;
  created_at: string;
  updated_at: string;
}

/**
 * One row per schedule and slot, inserted by the panel that takes the slot: its primary key
 * is what makes a slot run once, whatever the number of panels. The runner writes the run's
 * start and end here too, so a schedule's history reads the same on both databases.
 */
export interface ScheduleSlotsTable {
  schedule_id: number;
  /** ISO time of the slot. */
  slot: string;
  /** Runs started (1, or more after retries). */
  runs: Generated<number>;
  started_at: string | null;
  finished_at: string | null;
  /** The last run's error; null after a success. */
  error: string | null;
}

declare module '../db/schema' {
  interface Database {
    jobs: JobsTable;
    job_keys: JobKeysTable;
    schedules: SchedulesTable;
    schedule_slots: ScheduleSlotsTable;
  }
}

export const jobsMigration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('jobs'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('run_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('retry_limit', 'integer', (c) => c.notNull())
      .addColumn('backoff_seconds', 'integer', (c) => c.notNull())
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('locked_by', 'varchar(64)')
      .addColumn('locked_until', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('jobs_due')
      .on('jobs')
      .columns(['name', 'state', 'run_at'])
      .execute();
    await db.schema
      .createTable('job_keys')
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('key', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_keys_pk', ['name', 'key'])
      .execute();
    await withId(db, db.schema.createTable('schedules'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('cron', 'varchar(100)', (c) => c.notNull())
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
      .addColumn('job', 'varchar(100)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_slot', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('schedule_slots')
      .addColumn('schedule_id', 'integer', (c) =>
        c.notNull().references('schedules.id').onDelete('cascade'),
      )
      .addColumn('slot', 'varchar(32)', (c) => c.notNull())
      .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('started_at', 'varchar(32)')
      .addColumn('finished_at', 'varchar(32)')
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('schedule_slots_pk', ['schedule_id', 'slot'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('schedule_slots').execute();
    await db.schema.dropTable('schedules').execute();
    await db.schema.dropTable('job_keys').execute();
    await db.schema.dropTable('jobs').execute();
  },
};
