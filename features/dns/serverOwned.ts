import type { Db } from '../../server/db/database';
// The DNS tables join the panel's Database type there.
import type {} from './serverTables';

/**
 * The one lookup by id of each DNS row, always through its owner: a zone hangs under a
 * third-party key of the user, a record under a zone. Another user's id finds nothing, like a
 * missing one. The request hook calls `findOwnedZone` for `{zoneId}` (the feature's
 * `accountChildren`); a record is looked up within that zone.
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
export function findOwnedZone(
  db: Db,
  uid: number,
  id: number | string,
): Promise<ZoneRow | undefined> {
  return zoneRows(db)
    .where('third_party_keys.user_id', '=', uid)
    .where('dns_zones.id', '=', Number(id))
    .executeTakeFirst();
}

/** A record of a zone: the panel's id for the provider's reference. */
export type ZoneRecordRow = { id: number; zone_id: number; provider_ref: string };

/**
 * The record `id` of a zone the request hook loaded through the user first (`within` of the
 * record routes), or undefined: the zone is the user's, so the record is theirs through it.
 */
export function findZoneRecord(
  db: Db,
  _uid: number,
  id: number | string,
  zone?: unknown,
): Promise<ZoneRecordRow | undefined> {
  if (!isZoneRow(zone)) return Promise.resolve(undefined);
  return db
    .selectFrom('dns_records')
    .select(['id', 'zone_id', 'provider_ref'])
    .where('zone_id', '=', zone.id)
    .where('id', '=', Number(id))
    .executeTakeFirst();
}

/** The holder the hook hands over is the zone `findOwnedZone` loaded (or nothing at all). */
const isZoneRow = (row: unknown): row is Pick<ZoneRow, 'id'> =>
  typeof row === 'object' && row !== null && typeof (row as { id?: unknown }).id === 'number';
