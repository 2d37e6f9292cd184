import type { ListQuery } from '../../resources/define';
import type { DnsZone } from './schemas';
import type { Db } from '../../server/db/database';
import { now } from '../../server/db/database';
import { notFound } from '../../server/http/errors';
import type { Page } from '../../server/repositories/paging';
import type { ThirdPartyKeyRow } from '../thirdpartykeys/serverApi';
import type { DnsAccounts } from './serverAccounts';
import { atProvider } from './serverHttpErrors';
import { type ZoneRow, zoneRows } from './serverOwned';

export type { ZoneRow } from './serverOwned';

/** The zones of DNS provider accounts, with the panel's ids kept in step with the provider's. */
export class DnsZones {
  constructor(
    private readonly db: Db,
    private readonly accounts: DnsAccounts,
  ) {}

  private rows() {
    return zoneRows(this.db);
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

  /**
   * The user's account `label` that holds `zone` (the user's, loaded through `{uid}` by the
   * request hook); a zone of another of the user's accounts answers 404.
   */
  async accountOf(uid: number, zone: ZoneRow, label: string): Promise<ThirdPartyKeyRow> {
    const account = await this.accounts.account(uid, label);
    if (zone.key_id !== account.id) throw notFound('No such zone');
    return account;
  }

  /** Reads the account's zones from the provider and keeps the panel's ids in step. */
  async sync(account: ThirdPartyKeyRow): Promise<void> {
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
    await this.sync(account);
    const all = await this.rows()
      .where('dns_zones.key_id', '=', account.id)
      .orderBy('dns_zones.name', query.order === 'DESC' && query.sort === 'name' ? 'desc' : 'asc')
      .execute();
    const start = (query.page - 1) * query.perPage;
    return {
      total: all.length,
      data: all.slice(start, start + query.perPage).map(DnsZones.zoneRecord),
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
    const zone = await this.rows()
      .where('dns_zones.key_id', '=', account.id)
      .where('dns_zones.provider_zone_id', '=', made.id)
      .executeTakeFirstOrThrow();
    return DnsZones.zoneRecord(zone);
  }

  async deleteZone(uid: number, zone: ZoneRow, label: string): Promise<DnsZone> {
    const account = await this.accountOf(uid, zone, label);
    await atProvider(() =>
      this.accounts.providerFor(account).deleteZone({ id: zone.provider_zone_id, name: zone.name }),
    );
    await this.db.deleteFrom('dns_zones').where('id', '=', zone.id).execute();
    return DnsZones.zoneRecord(zone);
  }

  /** The account's zone of that name, read from the provider again when not known yet. */
  async named(account: ThirdPartyKeyRow, domain: string): Promise<ZoneRow | undefined> {
    const find = () =>
      this.rows()
        .where('dns_zones.key_id', '=', account.id)
        .where('dns_zones.name', '=', domain)
        .executeTakeFirst();
    const known = await find();
    if (known) return known;
    await this.sync(account);
    return find();
  }
}
