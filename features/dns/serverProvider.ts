import type { DnsRecordType } from './schemas';

/** A zone as a provider knows it. */
export interface ProviderZone {
  /** The provider's id: PowerDNS's zone id (`example.com.`), Cloudflare's hex id. */
  id: string;
  /** Without the trailing dot. */
  name: string;
}

/** A record in the providers' common terms; names are absolute, without the trailing dot. */
export interface RecordData {
  type: DnsRecordType;
  fqdn: string;
  ttl: number;
  /** The address, host, text or CAA value; for SRV the target. */
  content: string;
  priority: number | null;
  weight: number | null;
  port: number | null;
  flags: number | null;
  tag: string | null;
}

export interface ProviderRecord extends RecordData {
  /** Stable for the record while it is unchanged: Cloudflare's id, or PowerDNS's name|type|content. */
  ref: string;
}

/** The operations the panel needs, the same for every DNS provider. */
export interface DnsProvider {
  readonly name: string;
  /** A cheap authenticated call: throws `auth` when the credential is refused. */
  verify(): Promise<void>;
  listZones(): Promise<ProviderZone[]>;
  createZone(name: string, nameservers: string[]): Promise<ProviderZone>;
  deleteZone(zone: ProviderZone): Promise<void>;
  listRecords(zone: ProviderZone): Promise<ProviderRecord[]>;
  createRecord(zone: ProviderZone, record: RecordData): Promise<ProviderRecord>;
  updateRecord(zone: ProviderZone, ref: string, record: RecordData): Promise<ProviderRecord>;
  deleteRecord(zone: ProviderZone, ref: string): Promise<void>;
}

export const SUPPORTED_TYPES: ReadonlySet<string> = new Set([
  'A',
  'AAAA',
  'CNAME',
  'MX',
  'TXT',
  'NS',
  'SRV',
  'CAA',
]);

/** Canonical IPv6 text (RFC 5952, as PowerDNS and Cloudflare print it). */
export function canonicalIpv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** A request to a provider with a time limit; network failures become `unreachable`. */
