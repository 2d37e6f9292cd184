import type { Db } from '../../server/db/database';
import type { DnsAccounts } from './serverAccounts';
import { DnsRecords } from './serverRecords';
import { DnsZones } from './serverZones';

/**
 * The zones and records of DNS provider accounts, through one interface for every provider:
 * the zones (zones.ts) and their records (records.ts), as the handlers call them.
 */
export class DnsService {
  readonly zones: DnsZones;
  readonly records: DnsRecords;

  constructor(db: Db, accounts: DnsAccounts) {
    this.zones = new DnsZones(db, accounts);
    this.records = new DnsRecords(db, accounts, this.zones);
  }

  listZones(...args: Parameters<DnsZones['listZones']>) {
    return this.zones.listZones(...args);
  }

  createZone(...args: Parameters<DnsZones['createZone']>) {
    return this.zones.createZone(...args);
  }

  deleteZone(...args: Parameters<DnsZones['deleteZone']>) {
    return this.zones.deleteZone(...args);
  }

  listRecords(...args: Parameters<DnsRecords['listRecords']>) {
    return this.records.listRecords(...args);
  }

  createRecord(...args: Parameters<DnsRecords['createRecord']>) {
    return this.records.createRecord(...args);
  }

  updateRecord(...args: Parameters<DnsRecords['updateRecord']>) {
    return this.records.updateRecord(...args);
  }

  deleteRecord(...args: Parameters<DnsRecords['deleteRecord']>) {
    return this.records.deleteRecord(...args);
  }
}
