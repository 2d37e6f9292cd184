import type { Generated } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

/** A zone the panel has seen at a provider account: the panel's id for the provider's. */
export interface DnsZonesTable {
  id: Generated<number>;
  key_id: number;
  provider_zone_id: string;
  name: string;
  created_at: Timestamp;
}

/** A record seen in a zone: the panel's id for the provider's reference. */
export interface DnsRecordsTable {
  id: Generated<number>;
  zone_id: number;
  provider_ref: string;
  created_at: Timestamp;
}

/**
 * The tables of DNS (issue 4): merged into `Database` (server/db/schema.ts). They are made by
 * migration `0004_dns`, which features/thirdpartykeys declares: the zones hang under its keys.
 */
export interface DnsTables {
  dns_zones: DnsZonesTable;
  dns_records: DnsRecordsTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends DnsTables {}
}
