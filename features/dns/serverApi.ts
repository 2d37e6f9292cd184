/**
 * What DNS offers other features, of the panel's code (lint: stackdeck/feature-api): find the
 * user's zone that holds a domain, read all its records, and write records into it, checked by
 * the same schema as the record routes. Mail publishes its DKIM/SPF/DMARC/MX values with it.
 */
import type { Db } from '../../server/db/database';
import { fieldError, notFound } from '../../server/http/errors';
import type { Services } from '../../server/serviceTypes';
import type { DnsProviderId } from '../thirdpartykeys/api';
import { type DnsRecord, dnsRecordInput } from './schemas';
import { type ZoneRow, zoneRows } from './serverOwned';

export type { DnsRecord } from './schemas';
export type { ZoneRow } from './serverOwned';

/**
 * The user's zone (at any of their DNS accounts) that holds `domain`: the zone of that name, or
 * the nearest above it (`example.com` for `shop.example.com`). Zones the panel has listed only:
 * one made at the provider outside the panel shows up once its account's zones are listed.
 */
export async function zoneHolding(
  db: Db,
  uid: number,
  domain: string,
): Promise<ZoneRow | undefined> {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  const names = labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
  if (!names.length) return undefined;
  const rows = await zoneRows(db)
    .where('third_party_keys.user_id', '=', uid)
    .where('dns_zones.name', 'in', names)
    .execute();
  return rows.sort((a, b) => b.name.length - a.name.length || a.id - b.id)[0];
}

type DnsServices = Pick<Services, 'dns'>;

/** Every record of the zone, with the panel's ids (read from the provider). */
export async function zoneRecordsOf(
  services: DnsServices,
  uid: number,
  zone: ZoneRow,
): Promise<DnsRecord[]> {
  const out: DnsRecord[] = [];
  for (let page = 1; ; page++) {
    const got = await services.dns.listRecords(
      uid,
      zone.integration as DnsProviderId,
      zone.label,
      zone.name,
      { page, perPage: 500, order: 'ASC' },
    );
    out.push(...got.data);
    if (out.length >= got.total || got.data.length === 0) return out;
  }
}

/**
 * Create, update and delete records of the zone, the record routes' way: each record is checked
 * by `dnsRecordInput` (a bad one is a 400 naming its field), ids are the panel's.
 */
/** A record checked like the routes check it; a refused one is a 400 naming its field. */
function checked(record: unknown) {
  const parsed = dnsRecordInput.safeParse(record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw fieldError(String(issue.path[0] ?? 'content'), issue.message);
}

export function zoneWriter(services: DnsServices, db: Db, uid: number, zone: ZoneRow) {
  const row = async (id: number) => {
    const found = await db
      .selectFrom('dns_records')
      .select(['id', 'zone_id', 'provider_ref'])
      .where('zone_id', '=', zone.id)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) throw notFound(`No record ${id} in the zone ${zone.name}`);
    return found;
  };
  return {
    create: async (record: unknown) =>
      services.dns.createRecord(uid, zone, zone.label, checked(record)),
    update: async (id: number, record: unknown) =>
      services.dns.updateRecord(uid, zone, await row(id), zone.label, checked(record)),
    remove: async (id: number) => services.dns.deleteRecord(uid, zone, await row(id), zone.label),
  };
}
