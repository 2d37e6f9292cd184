/**
 * The cron jobs' table and managed kind, and the checks every write of a job makes (the
 * handlers' in server.ts, an app's own jobs' in serverApp.ts).
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';
import type { cronJobInput } from './resource';

interface CronColumns {
  label: string;
  sys_user: string;
  schedule: string;
  command: string;
  /** 0/1: a paused job is kept here and left out of the crontab. */
  enabled: number;
  /** The web app whose install made the job (its background work): it goes with the app. */
  webapp_id: number | null;
}
export type CronJobRow = ManagedRow & CronColumns;

declare module '../../server/db/schema' {
  interface Database {
    cronjobs: ManagedColumns & CronColumns;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    cronjobs: CronJobRow;
  }
}

export const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'cronjobs')
      .addColumn('label', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('sys_user', 'varchar(32)', (c) => c.notNull())
      .addColumn('schedule', 'varchar(100)', (c) => c.notNull())
      .addColumn('command', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('cronjobs_server').on('cronjobs').column('server_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('cronjobs').execute();
  },
};

/** A job made by an app's install is the app's (features/cron/serverApp.ts). */
export const appMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('cronjobs')
      .addColumn('webapp_id', 'integer', (c) => c.references('webapps.id').onDelete('set null'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('cronjobs').dropColumn('webapp_id').execute();
  },
};

export type Input = z.output<typeof cronJobInput>;

export const columns = ({ enabled, ...rest }: Input) => ({ ...rest, enabled: enabled ? 1 : 0 });

export const cronKind = defineManagedKind<CronJobRow>({
  resource: 'cronjobs',
  table: 'cronjobs',
  toColumns: (input) => columns(input as Input),
  noun: (row) => `cron job ${row.label ? `"${row.label}" ` : ''}of ${row.sys_user}`,
  async apply(op, row) {
    const { id, sys_user, schedule, command } = row;
    // A paused job is held by the panel only.
    if (!row.enabled) await op('cron.remove', { id, sys_user });
    else await op('cron.set', { id, sys_user, schedule, command });
  },
  async remove(op, row) {
    await op('cron.remove', { id: row.id, sys_user: row.sys_user });
  },
  async readBack(op, rows) {
    const drift = new Map<number, Drift>();
    for (const user of new Set(rows.map((r) => r.sys_user))) {
      const { jobs } = await op('cron.list', { sys_user: user });
      const held = new Map(jobs.map((j) => [j.id, j]));
      for (const row of rows.filter((r) => r.sys_user === user && r.status === 'active')) {
        const job = held.get(row.id);
        if (!row.enabled) {
          if (job) drift.set(row.id, 'changed');
        } else if (!job) drift.set(row.id, 'missing');
        else if (job.schedule !== row.schedule || job.command !== row.command)
          drift.set(row.id, 'changed');
      }
    }
    return drift;
  },
});

/** A job runs as root or as a system user the panel made on this server. */
export async function checkUser(ctx: HandlerContext, user: string) {
  if (user === 'root') return;
  const known = await ctx.app.db
    .selectFrom('sysusers')
    .select('id')
    .where('server_id', '=', ctx.server.id)
    .where('user_name', '=', user)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!known) throw fieldError('sys_user', `${user} is not a system user of this server`);
}
