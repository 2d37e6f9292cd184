import type { Kysely } from 'kysely';
import { withId } from '../../server/db/migrations/helpers';

/**
 * Migration `0004_dns` (the name existing databases have recorded): third-party keys (encrypted),
 * and the panel's map of DNS zones and records to the provider's. One migration since the zones
 * hang under the keys; it lives here, with the table everything else hangs under, so DNS
 * (which uses this feature) always finds both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('third_party_keys'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('integration', 'varchar(32)', (c) => c.notNull())
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    .addColumn('api_url', 'varchar(500)')
    .addColumn('key_id', 'varchar(256)')
    /** SecretBox-sealed with the install's key. */
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('secret_hint', 'varchar(8)', (c) => c.notNull())
    .addColumn('checked_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('third_party_keys_user_label')
    .on('third_party_keys')
    .columns(['user_id', 'label'])
    .unique()
    .execute();

  await withId(db, db.schema.createTable('dns_zones'))
    .addColumn('key_id', 'integer', (c) =>
      c.notNull().references('third_party_keys.id').onDelete('cascade'),
    )
    .addColumn('provider_zone_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(253)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dns_zones_key_ref')
    .on('dns_zones')
    .columns(['key_id', 'provider_zone_id'])
    .unique()
    .execute();

  await withId(db, db.schema.createTable('dns_records'))
    .addColumn('zone_id', 'integer', (c) =>
      c.notNull().references('dns_zones.id').onDelete('cascade'),
    )
    /** Cloudflare's record id; for PowerDNS `name|type|content` (rrsets have no ids). */
    .addColumn('provider_ref', 'varchar(2400)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dns_records_zone').on('dns_records').columns(['zone_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dns_records').execute();
  await db.schema.dropTable('dns_zones').execute();
  await db.schema.dropTable('third_party_keys').execute();
}
