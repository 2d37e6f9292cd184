import type { ListQuery } from '../../resources/define';
import type { DnsRecord, DnsRecordInput } from './schemas';
import type { DnsProviderId } from '../thirdpartykeys/api';
import type { Db } from '../../server/db/database';
import { now } from '../../server/db/database';
import { notFound } from '../../server/http/errors';
import type { Page } from '../../server/repositories/paging';
import type { DnsAccounts } from './serverAccounts';
import { atProvider } from './serverHttpErrors';
import { absoluteName, relativeName } from './serverNames';
import type { ZoneRecordRow } from './serverOwned';
import type { ProviderRecord, RecordData } from './serverProvider';
import type { DnsZones, ZoneRow } from './serverZones';

/** The records of DNS zones, each with the panel's id (kept while the provider's ref holds). */
export class DnsRecords {
  constructor(
    private readonly db: Db,
    private readonly accounts: DnsAccounts,
    private readonly zones: DnsZones,
  ) {}

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
    const zone = await this.zones.named(account, domain);
    if (!zone) throw notFound(`No zone ${domain} at "${label}"`);
    const z = zone;
    const remote = await atProvider(() =>
      this.accounts.providerFor(account).listRecords({ id: z.provider_zone_id, name: z.name }),
    );
    const ids = await this.syncRecords(z.id, remote);
    const all = remote
      .map((r, i) => DnsRecords.recordOf(ids[i]!, z, r))
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
    zone: ZoneRow,
    label: string,
    input: DnsRecordInput,
  ): Promise<DnsRecord> {
    const account = await this.zones.accountOf(uid, zone, label);
    const data = DnsRecords.dataOf(input, zone.name);
    const made = await atProvider(() =>
      this.accounts
        .providerFor(account)
        .createRecord({ id: zone.provider_zone_id, name: zone.name }, data),
    );
    return DnsRecords.recordOf(await this.insertRecord(zone.id, made.ref), zone, made);
  }

  async updateRecord(
    uid: number,
    zone: ZoneRow,
    row: ZoneRecordRow,
    label: string,
    input: DnsRecordInput,
  ): Promise<DnsRecord> {
    const account = await this.zones.accountOf(uid, zone, label);
    const data = DnsRecords.dataOf(input, zone.name);
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
    return DnsRecords.recordOf(row.id, zone, changed);
  }

  async deleteRecord(
    uid: number,
    zone: ZoneRow,
    row: ZoneRecordRow,
    label: string,
  ): Promise<{ id: number }> {
    const account = await this.zones.accountOf(uid, zone, label);
    await atProvider(() =>
      this.accounts
        .providerFor(account)
        .deleteRecord({ id: zone.provider_zone_id, name: zone.name }, row.provider_ref),
    );
    await this.db.deleteFrom('dns_records').where('id', '=', row.id).execute();
    return { id: row.id };
  }
}
