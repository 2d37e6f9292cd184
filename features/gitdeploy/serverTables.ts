/**
 * The panel's git deploy tables (migration 0028_git_deploy): one configuration per app, its
 * deploys (the history the page shows), and the webhook deliveries already handled; 0029 adds
 * the flag of a deploy queued by a webhook during a running one.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';

interface GitConfigsTable {
  id: Generated<number>;
  server_id: number;
  webapp_id: number;
  repository: string;
  branch: string;
  script: string;
  health_path: string;
  /** JSON array of known_hosts lines: the git server's keys, scanned on configure and pinned. */
  host_keys: string;
  /** JSON array of their SHA-256 fingerprints, as shown. */
  host_fingerprints: string;
  webhook_enabled: Flag;
  webhook_provider: 'github' | 'gitlab';
  /** The URL's random part: names the app without giving away its id. */
  webhook_token: string;
  /** The HMAC key (GitHub) or token (GitLab), sealed with the install's key. */
  webhook_secret: string;
  /** 1 while a webhook's deploy waits for the running one's end (it then deploys the head). */
  deploy_queued: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface GitDeploysTable {
  id: Generated<number>;
  server_id: number;
  webapp_id: number;
  task_id: number | null;
  trigger: 'manual' | 'webhook' | 'rollback';
  status: 'running' | 'completed' | 'failed';
  branch: string;
  commit: string | null;
  release: string | null;
  output: string;
  message: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

interface GitDeliveriesTable {
  id: Generated<number>;
  webapp_id: number;
  /** X-GitHub-Delivery or X-Gitlab-Event-UUID: one delivery is handled once. */
  delivery: string;
  created_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    git_configs: GitConfigsTable;
    git_deploys: GitDeploysTable;
    git_deliveries: GitDeliveriesTable;
  }
}

export type GitConfigRow = Selectable<GitConfigsTable>;
export type GitDeployRow = Selectable<GitDeploysTable>;

export const migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('git_configs'))
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().unique().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('repository', 'varchar(400)', (c) => c.notNull())
      .addColumn('branch', 'varchar(200)', (c) => c.notNull())
      .addColumn('script', 'text', (c) => c.notNull())
      .addColumn('health_path', 'varchar(200)', (c) => c.notNull())
      .addColumn('host_keys', 'text', (c) => c.notNull())
      .addColumn('host_fingerprints', 'text', (c) => c.notNull())
      .addColumn('webhook_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('webhook_provider', 'varchar(8)', (c) => c.notNull())
      .addColumn('webhook_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('webhook_secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db, db.schema.createTable('git_deploys'))
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('task_id', 'integer')
      .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('branch', 'varchar(200)', (c) => c.notNull())
      .addColumn('commit', 'varchar(64)')
      .addColumn('release', 'varchar(100)')
      .addColumn('output', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('git_deploys_app')
      .on('git_deploys')
      .columns(['webapp_id', 'id'])
      .execute();
    await withId(db, db.schema.createTable('git_deliveries'))
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('delivery', 'varchar(100)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('git_deliveries_once', ['webapp_id', 'delivery'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('git_deliveries').execute();
    await db.schema.dropTable('git_deploys').execute();
    await db.schema.dropTable('git_configs').execute();
  },
};

/** In the database, so a queued deploy outlives a panel restart (the sweeper starts it). */
export const queueMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('git_configs')
      .addColumn('deploy_queued', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('git_configs').dropColumn('deploy_queued').execute();
  },
};
