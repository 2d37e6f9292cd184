/** The certificates' table: one row per app's certificate (a server-managed row). */
import type { Generated, Kysely } from 'kysely';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';

interface SslColumns {
  webapp_id: number;
  type: 'custom' | 'letsencrypt';
  /** JSON array of the names the certificate covers (the app's domains until issued). */
  names: string;
  issuer: string | null;
  not_before: string | null;
  not_after: string | null;
  force_https: number;
  email: string | null;
  /** The uploaded full chain (PEM, public), for a custom certificate the server may ask again. */
  certificate: string | null;
  /** The uploaded key, sealed with the install's key, until the server has it (transient). */
  private_key: string | null;
  /** 1 while a renewal is asked and not yet done (transient). */
  renew: number | null;
  /**
   * 1 once the server has served a certificate for the app: a later refusal (a renewal the CA
   * refused, a replacement nginx refused) leaves the old one in place, so the app's vhost keeps
   * its HTTPS server when it is written again.
   */
  served: Generated<number>;
}
export type SslRow = ManagedRow & SslColumns;

declare module '../../server/db/schema' {
  interface Database {
    sslcerts: ManagedColumns & SslColumns;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    sslcerts: SslRow;
  }
}

export const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'sslcerts')
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('names', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text')
      .addColumn('not_before', 'varchar(32)')
      .addColumn('not_after', 'varchar(32)')
      .addColumn('force_https', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('email', 'varchar(254)')
      .addColumn('certificate', 'text')
      .addColumn('private_key', 'text')
      .addColumn('renew', 'integer')
      .addColumn('served', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('sslcerts_webapp', ['webapp_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sslcerts').execute();
  },
};
