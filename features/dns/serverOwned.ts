import type { Db } from '../../server/db/database';
// The DNS tables join the panel's Database type there.
import type {} from './serverTables';

/**
 * The one lookup by id of each DNS row, always through its owner: a zone hangs under a
 * third-party key of the user, a record under a zone. Another user's id finds nothing, like a
 * missing one (a later request hook calls these for `{zoneId}` and `{recordId}`).
 */

/** Zones with the account they hang under (its label and provider). */
export const zoneRows = (db: Db) =>
  db
    .selectFrom('dns_zones')
    .innerJoin('third_party_keys', 'third_party_keys.id', 'dns_zones.key_id')
    .select([
      'dns_zones.id',
      'dns_zones.key_id',
      'dns_zones.provider_zone_id',
      'dns_zones.name',
      'dns_zones.created_at',
      'third_party_keys.label',
      'third_party_keys.integration',
    ]);

export interface ZoneRow {
  id: number;
  key_id: number;
  provider_zone_id: string;
  name: string;
  created_at: string;
  label: string;
  integration: string;
}

/** The user's zone `id`, or undefined. */
export function findOwnedZone(db: Db, uid: number, id: number): Promise<ZoneRow | undefined> {
  return zoneRows(db)
    .where('third_party_keys.user_id', '=', uid)
    .where('dns_zones.id', '=', id)
    .executeTakeFirst();
}

/** The user's record `id` (with its zone and the provider's reference), or undefined. */
export function findOwnedRecord(db: Db, uid: number, id: number) {
  return db
    .selectFrom('dns_records')
    .innerJoin('dns_zones', 'dns_zones.id', 'dns_records.zone_id')
    .innerJoin('third_party_keys', 'third_party_keys.id', 'dns_zones.key_id')
    .select(['dns_records.id', 'dns_records.zone_id', 'dns_records.provider_ref'])
    .where('third_party_keys.user_id', '=', uid)
    .where('dns_records.id', '=', id)
    .executeTakeFirst();
}
