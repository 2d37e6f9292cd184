/**
 * The mailboxes' autoresponders as the panel keeps them (`mail_autoresponders`, one per
 * mailbox, gone with it). A row exists only once its server took it (`mail.vacation.set`).
 */
import type { Kysely } from 'kysely';

export interface MailAutorespondersTable {
  mail_user_id: number;
  subject: string;
  body: string;
  /** YYYY-MM-DD or null (from now / no end). */
  starts: string | null;
  ends: string | null;
  days: number;
  updated_at: string;
}

declare module '../../server/db/schema' {
  interface Database {
    mail_autoresponders: MailAutorespondersTable;
  }
}

export const autorespondersMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_autoresponders')
      .addColumn('mail_user_id', 'integer', (c) =>
        c.primaryKey().references('mail_users.id').onDelete('cascade'),
      )
      .addColumn('subject', 'varchar(200)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('starts', 'varchar(10)')
      .addColumn('ends', 'varchar(10)')
      .addColumn('days', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_autoresponders').execute();
  },
};
