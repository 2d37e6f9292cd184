import type { ListQuery } from '../../resources/define';
import type { DnsRecord, DnsRecordInput, DnsZone } from '../../resources/dns';
import type { DnsProviderId } from '../../resources/integrations';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { notFound } from '../http/errors';
import type { Page } from '../repositories/paging';
import type { ThirdPartyKeyRow } from '../repositories/thirdPartyKeys';
import type { DnsAccounts } from './accounts';
import { atProvider } from './httpErrors';
import { absoluteName, relativeName } from './names';
import type { ProviderRecord, RecordData } from './provider';

interface ZoneRow {
  id: number;
  key_id: number;
  provider_zone_id: string;
  name: string;
  created_at: string;
  label: string;
  integration: string;
}

/** The zones and records of DNS provider accounts, through one interface for every provider. */
export class DnsService {
  constructor(
    private readonly db: Db,
    private readonly accounts: DnsAccounts,
  ) {}

  private zones() {
    return this.db
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
  }

  private static zoneRecord(row: ZoneRow): DnsZone {
    return {
      id: row.id,
      account_id: row.key_id,
      label: row.label,
      provider: row.integration,
      name: row.name,
      provider_zone_id: row.provider_zone_id,
      created_at: row.created_at,
    };
  }

  /** A zone of the user's account `label`; any other id answers 404. */
  async zone(
    uid: number,
    zoneId: number,
    label: string,
  ): Promise<{ zone: ZoneRow; account: ThirdPartyKeyRow }> {
    const account = await this.accounts.account(uid, label);
    const zone = await this.zones()
      .where('dns_zones.id', '=', zoneId)
      .where('dns_zones.key_id', '=', account.id)
      .executeTakeFirst();
    if (!zone) throw notFound('No such zone');
    return { zone, account };
  }

  /** Reads the account's zones from the provider and keeps the panel's ids in step. */
  private async syncZones(account: ThirdPartyKeyRow): Promise<void> {
    const remote = await atProvider(() => this.accounts.providerFor(account).listZones());
    const known = await this.db
      .selectFrom('dns_zones')
      .select(['id', 'provider_zone_id'])
      .where('key_id', '=', account.id)
      .execute();
    const knownRefs = new Set(known.map((z) => z.provider_zone_id));
    const remoteRefs = new Set(remote.map((z) => z.id));
    const gone = known.filter((z) => !remoteRefs.has(z.provider_zone_id)).map((z) => z.id);
    if (gone.length) await this.db.deleteFrom('dns_zones').where('id', 'in', gone).execute();
    // Two lists at once may both find a zone new: the unique index keeps one row.
    for (const z of remote.filter((zone) => !knownRefs.has(zone.id))) {
      await this.db
        .insertInto('dns_zones')
        .values({ key_id: account.id, provider_zone_id: z.id, name: z.name, created_at: now() })
        .onConflict((oc) => oc.columns(['key_id', 'provider_zone_id']).doNothing())
        .execute();
    }
  }

  async listZones(uid: number, label: string, query: ListQuery): Promise<Page<DnsZone>> {
    const account = await this.accounts.account(uid, label);
    await this.syncZones(account);
    const all = await this.zones()
      .where('dns_zones.key_id', '=', account.id)
      .orderBy('dns_zones.name', query.order === 'DESC' && query.sort === 'name' ? 'desc' : 'asc')
      .execute();
    const start = (query.page - 1) * query.perPage;
    return {
      total: all.length,
      data: all.slice(start, start + query.perPage).map(DnsService.zoneRecord),
    };
  }

  async createZone(
    uid: number,
    label: string,
    input: { name: string; nameservers?: string[] },
  ): Promise<DnsZone> {
    const account = await this.accounts.account(uid, label);
    const nameservers = input.nameservers?.length
      ? input.nameservers
      : [`ns1.${input.name}`, `ns2.${input.name}`];
    const made = await atProvider(() =>
      this.accounts.providerFor(account).createZone(input.name, nameservers),
    );
    await this.db
      .insertInto('dns_zones')
      .values({ key_id: account.id, provider_zone_id: made.id, name: made.name, created_at: now() })
      .onConflict((oc) => oc.columns(['key_id', 'provider_zone_id']).doNothing())
      .execute();
    const zone = await this.zones()
      .where('dns_zones.key_id', '=', account.id)
      .where('dns_zones.provider_zone_id', '=', made.id)
      .executeTakeFirstOrThrow();
    return DnsService.zoneRecord(zone);
  }

  async deleteZone(uid: number, zoneId: number, label: string): Promise<DnsZone> {
    const { zone, account } = await this.zone(uid, zoneId, label);
    await atProvider(() =>
      this.accounts.providerFor(account).deleteZone({ id: zone.provider_zone_id, name: zone.name }),
    );
    await this.db.deleteFrom('dns_zones').where('id', '=', zone.id).execute();
    return DnsService.zoneRecord(zone);
  }

  private static recordOf(id: number, zone: ZoneRow, r: RecordData): DnsRecord {
    return {
      id,
      zone_id: zone.id,
      type: r.type,
      name: relativeName(r.fqdn, zone.name),
      fqdn: r.fqdn,
      ttl: r.ttl,
      content: r.content,
      priority: r.priority,
      weight: r.weight,
      port: r.port,
      flags: r.flags,
      tag: r.tag,
    };
  }

  /** Records of the zone `domain` at account `label`, with the panel's ids. */
  async listRecords(
    uid: number,
    provider: DnsProviderId,
    label: string,
    domain: string,
    query: ListQuery,
  ): Promise<Page<DnsRecord>> {
    const account = await this.accounts.account(uid, label, provider);
    let zone = await this.zones()
      .where('dns_zones.key_id', '=', account.id)
      .where('dns_zones.name', '=', domain)
      .executeTakeFirst();
    if (!zone) {
      await this.syncZones(account);
      zone = await this.zones()
        .where('dns_zones.key_id', '=', account.id)
        .where('dns_zones.name', '=', domain)
        .executeTakeFirst();
    }
    if (!zone) throw notFound(`No zone ${domain} at "${label}"`);
    const z = zone;
    const remote = await atProvider(() =>
      this.accounts.providerFor(account).listRecords({ id: z.provider_zone_id, name: z.name }),
    );
    const ids = await this.syncRecords(z.id, remote);
    const all = remote
      .map((r, i) => DnsService.recordOf(ids[i]!, z, r))
      .sort((a, b) => a.fqdn.localeCompare(b.fqdn) || a.type.localeCompare(b.type) || a.id - b.id);
    if (query.order === 'DESC' && query.sort) all.reverse();
    const start = (query.page - 1) * query.perPage;
    return { total: all.length, data: all.slice(start, start + query.perPage) };
  }

  /** Gives every record the panel's id (kept while the provider's reference is unchanged). */
  private async syncRecords(zoneId: number, remote: ProviderRecord[]): Promise<number[]> {
    const known = await this.db
      .selectFrom('dns_records')
      .select(['id', 'provider_ref'])
      .where('zone_id', '=', zoneId)
      .execute();
    const byRef = new Map(known.map((r) => [r.provider_ref, r.id]));
    const seen = new Set(remote.map((r) => r.ref));
    const gone = known.filter((r) => !seen.has(r.provider_ref)).map((r) => r.id);
    if (gone.length) await this.db.deleteFrom('dns_records').where('id', 'in', gone).execute();
    // New records (all of them, the first time a zone is listed) in a few multi-row inserts.
    const fresh = [...new Set(remote.map((r) => r.ref).filter((ref) => !byRef.has(ref)))];
    for (let i = 0; i < fresh.length; i += 500) {
      const created_at = now();
      const rows = await this.db
        .insertInto('dns_records')
        .values(
          fresh
            .slice(i, i + 500)
            .map((ref) => ({ zone_id: zoneId, provider_ref: ref, created_at })),
        )
        .returning(['id', 'provider_ref'])
        .execute();
      for (const row of rows) byRef.set(row.provider_ref, row.id);
    }
    return remote.map((r) => byRef.get(r.ref)!);
  }

  private async insertRecord(zoneId: number, ref: string): Promise<number> {
    const row = await this.db
      .insertInto('dns_records')
      .values({ zone_id: zoneId, provider_ref: ref, created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  private static dataOf(input: DnsRecordInput, zone: string): RecordData {
    return {
      type: input.type,
      fqdn: absoluteName(input.name, zone),
      ttl: input.ttl,
      content: input.content,
      priority: input.type === 'MX' || input.type === 'SRV' ? input.priority : null,
      weight: input.type === 'SRV' ? input.weight : null,
      port: input.type === 'SRV' ? input.port : null,
      flags: input.type === 'CAA' ? input.flags : null,
      tag: input.type === 'CAA' ? input.tag : null,
    };
  }

  async createRecord(
    uid: number,
    zoneId: number,
    label: string,
    input: DnsRecordInput,
  ): Promise<DnsRecord> {
    const { zone, account } = await this.zone(uid, zoneId, label);
    const data = DnsService.dataOf(input, zone.name);
    const made = await atProvider(() =>
      this.accounts
        .providerFor(account)
        .createRecord({ id: zone.provider_zone_id, name: zone.name }, data),
    );
    return DnsService.recordOf(await this.insertRecord(zone.id, made.ref), zone, made);
  }

  private async recordRow(zoneId: number, recordId: number) {
    const row = await this.db
      .selectFrom('dns_records')
      .select(['id', 'provider_ref'])
      .where('zone_id', '=', zoneId)
      .where('id', '=', recordId)
      .executeTakeFirst();
    if (!row) throw notFound('No such record');
    return row;
  }

  async updateRecord(
    uid: number,
    zoneId: number,
    recordId: number,
    label: string,
    input: DnsRecordInput,
  ): Promise<DnsRecord> {
    const { zone, account } = await this.zone(uid, zoneId, label);
    const row = await this.recordRow(zone.id, recordId);
    const data = DnsService.dataOf(input, zone.name);
    const changed = await atProvider(() =>
      this.accounts
        .providerFor(account)
        .updateRecord({ id: zone.provider_zone_id, name: zone.name }, row.provider_ref, data),
    );
    await this.db
      .updateTable('dns_records')
      .set({ provider_ref: changed.ref })
      .where('id', '=', row.id)
      .execute();
    return DnsService.recordOf(row.id, zone, changed);
  }

  async deleteRecord(
    uid: number,
    zoneId: number,
    recordId: number,
    label: string,
  ): Promise<{ id: number }> {
    const { zone, account } = await this.zone(uid, zoneId, label);
    const row = await this.recordRow(zone.id, recordId);
    await atProvider(() =>
      this.accounts
        .providerFor(account)
        .deleteRecord({ id: zone.provider_zone_id, name: zone.name }, row.provider_ref),
    );
    await this.db.deleteFrom('dns_records').where('id', '=', row.id).execute();
    return { id: row.id };
  }
}
