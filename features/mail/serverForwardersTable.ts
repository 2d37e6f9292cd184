/**
 * The forwarders and catch-alls of apps' mail domains (`mail_forwarders`, managed like the
 * mailboxes: the server holds them in the domain's forward set, the sweeper settles them). A
 * forwarder is an address with no mailbox; the catch-all of a domain is its row with local `@`.
 */
import type { Kysely } from 'kysely';
import type { ManagedColumns, ManagedRow } from '../../server/managed/table';
import { createManagedTable } from '../../server/managed/table';

export interface ForwarderColumns {
  webapp_id: number;
  /** Lower-cased local part, or `@` for the domain's catch-all. */
  local: string;
  domain: string;
  /** JSON array of addresses (1 to 50). */
  targets: string;
}
export type ForwarderRow = ManagedRow & ForwarderColumns;

/** The catch-all's `local`: as `mail.forwards.set` names it. */
export const CATCH_ALL = '@';

declare module '../../server/db/schema' {
  interface Database {
    mail_forwarders: ManagedColumns & ForwarderColumns;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    'mail-forwarder': ForwarderRow;
  }
}

export const forwardersMigration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'mail_forwarders')
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('local', 'varchar(64)', (c) => c.notNull())
      .addColumn('domain', 'varchar(253)', (c) => c.notNull())
      .addColumn('targets', 'text', (c) => c.notNull())
      .execute();
    // One row per address (and one catch-all per domain) on a server: a second insert fails.
    await db.schema
      .createIndex('mail_forwarders_address')
      .on('mail_forwarders')
      .columns(['server_id', 'domain', 'local'])
      .unique()
      .execute();
    await db.schema
      .createIndex('mail_forwarders_webapp')
      .on('mail_forwarders')
      .column('webapp_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_forwarders').execute();
  },
};
