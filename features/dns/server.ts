import { defineServerFeature } from '../../server/feature';
import type { ServiceDeps } from '../../server/serviceDeps';
import { ThirdPartyKeyRepository } from '../thirdpartykeys/serverApi';
import { dnsAccountHandlers } from './serverAccountHandlers';
import { DnsAccounts, isDnsProvider } from './serverAccounts';
import { type ZoneRecordRow, type ZoneRow, findOwnedZone, findZoneRecord } from './serverOwned';
import { DnsService } from './serverService';
import { dnsRecordHandlers, dnsZoneHandlers } from './serverZoneHandlers';

/** The provider clients and the zones and records of DNS (issue 4). */
export interface DnsServices {
  /** Stored DNS provider accounts (third-party keys) and their clients. */
  dnsAccounts: DnsAccounts;
  /** Zones and records at those accounts. */
  dns: DnsService;
}

export function createDnsServices(deps: ServiceDeps): DnsServices {
  // Its own view of the keys (the repository keeps no state): the services are built apart.
  const keys = new ThirdPartyKeyRepository(deps.db, deps.box);
  const dnsAccounts = new DnsAccounts(deps.config, keys, deps.outbound);
  return { dnsAccounts, dns: new DnsService(deps.db, dnsAccounts) };
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends DnsServices {}
}

declare module '../../server/http/children' {
  // `ctx.child` of the zone routes (`{zoneId}`, loaded through `{uid}`) and of the record
  // routes (`{recordId}`, loaded within that zone, their `ctx.within`).
  interface FeatureChildRows {
    'dns-zones': ZoneRow;
    'dns-records': ZoneRecordRow;
  }
  interface FeatureHolderRows {
    'dns-records': ZoneRow;
  }
}

/**
 * The panel side of DNS (issue 4's account area). Its tables are made by third-party keys'
 * migration `0004_dns` (features/thirdpartykeys/serverMigration.ts): zones hang under keys.
 */
export const server = defineServerFeature({
  handlers: [dnsAccountHandlers, dnsZoneHandlers, dnsRecordHandlers],
  accountChildren: { 'dns-zones': findOwnedZone, 'dns-records': findZoneRecord },
  services: createDnsServices,
  on: {
    /** A DNS provider's credential is asked whether it works before third-party keys store it. */
    async 'thirdpartykey.checking'({ integration, fields, checked }, { app }) {
      if (!isDnsProvider(integration)) return;
      await app.services.dnsAccounts.verify(integration, fields);
      checked();
    },
  },
});
