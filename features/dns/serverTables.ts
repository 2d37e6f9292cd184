import type { Generated } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

/** A user's credential for another service; the secret only ever sealed. */
export interface ThirdPartyKeysTable {
  id: Generated<number>;
  user_id: number;
  integration: string;
  label: string;
  api_url: string | null;
  key_id: string | null;
  secret_sealed: string;
  /** The last four characters, shown masked. */
  secret_hint: string;
  checked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

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
 * The tables of third-party keys and DNS (issue 4): merged into `Database` (server/db/schema.ts), and their
 * migrations, merged into server/db/migrate.ts in name order.
 */
export interface DnsTables {
  third_party_keys: ThirdPartyKeysTable;
  dns_zones: DnsZonesTable;
  dns_records: DnsRecordsTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends DnsTables {}
}
