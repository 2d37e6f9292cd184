/**
 * Each Roundcube app's single sign-on key (`roundcube_sso`): made by the panel, sealed with the
 * install's key (SecretBox), opened only to mint a token or to send it to the app's server. It
 * goes with the app (the row cascades).
 */
import type { Kysely } from 'kysely';

export interface RoundcubeSsoTable {
  webapp_id: number;
  server_id: number;
  /** The app's signing key (ssoPlugin.ts SSO_KEY), sealed. */
  sso_key: string;
  created_at: string;
}

declare module '../../server/db/schema' {
  interface Database {
    roundcube_sso: RoundcubeSsoTable;
  }
}

export const ssoMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('roundcube_sso')
      .addColumn('webapp_id', 'integer', (c) =>
        c.primaryKey().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('sso_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('roundcube_sso').execute();
  },
};
