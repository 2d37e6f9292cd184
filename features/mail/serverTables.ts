/**
 * The panel's mail tables: mail per server (`mail_servers`), the mail domains of apps with the
 * DKIM public key their server made (`mail_domains`), and the mailboxes (`mail_users`, managed:
 * the server holds them, the sweeper settles them).
 */
import type { Generated, Kysely } from 'kysely';
import type { ManagedColumns, ManagedRow } from '../../server/managed/table';
import { createManagedTable } from '../../server/managed/table';
import { withId } from '../../server/db/migrations/helpers';

export interface MailboxColumns {
  webapp_id: number;
  /** Lower-cased, as Dovecot logs in. */
  local: string;
  domain: string;
  quota_mb: number;
  /** The argon2id hash as the server receives it, kept until the server has it. */
  password_hash: string | null;
  /** JSON array of addresses. */
  forward_to: string;
  keep_copy: number;
  /** 0/1: set by `DELETE ?delete_mail=true`, the mail goes with the mailbox. */
  delete_mail: number;
}
export type MailboxRow = ManagedRow & MailboxColumns;

export interface MailDomainsTable {
  id: Generated<number>;
  server_id: number;
  webapp_id: number;
  domain: string;
  /** Base64 of the SPKI DER, as `mail.domain.set` answers it. */
  dkim_public_key: string;
  selector: string;
  created_at: string;
}

export interface MailServersTable {
  server_id: number;
  enabled: number;
  hostname: string | null;
  smarthost_host: string | null;
  smarthost_port: number | null;
  smarthost_username: string | null;
  /** Sealed with the install's key (SecretBox), opened only for the op. */
  smarthost_password: string | null;
  /** JSON of the last preflight. */
  checks: string | null;
  enabled_at: string | null;
  updated_at: string;
}

declare module '../../server/db/schema' {
  interface Database {
    mail_users: ManagedColumns & MailboxColumns;
    mail_domains: MailDomainsTable;
    mail_servers: MailServersTable;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    'mail-user': MailboxRow;
  }
}

export const migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_servers')
      .addColumn('server_id', 'integer', (c) =>
        c.primaryKey().references('servers.id').onDelete('cascade'),
      )
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('hostname', 'varchar(253)')
      .addColumn('smarthost_host', 'varchar(253)')
      .addColumn('smarthost_port', 'integer')
      .addColumn('smarthost_username', 'varchar(200)')
      .addColumn('smarthost_password', 'text')
      .addColumn('checks', 'text')
      .addColumn('enabled_at', 'varchar(32)')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db, db.schema.createTable('mail_domains'))
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('domain', 'varchar(253)', (c) => c.notNull())
      .addColumn('dkim_public_key', 'text', (c) => c.notNull())
      .addColumn('selector', 'varchar(63)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('mail_domains_app_domain', ['webapp_id', 'domain'])
      .execute();
    await createManagedTable(db, 'mail_users')
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('local', 'varchar(64)', (c) => c.notNull())
      .addColumn('domain', 'varchar(253)', (c) => c.notNull())
      .addColumn('quota_mb', 'integer', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('forward_to', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('keep_copy', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('delete_mail', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('mail_users_address')
      .on('mail_users')
      .columns(['server_id', 'domain', 'local'])
      .execute();
    await db.schema.createIndex('mail_users_webapp').on('mail_users').column('webapp_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_users').execute();
    await db.schema.dropTable('mail_domains').execute();
    await db.schema.dropTable('mail_servers').execute();
  },
};
