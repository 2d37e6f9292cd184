import { dnsAccounts, dnsRecords, dnsZones } from '../dns';
import type { ResourceDef } from '../define';
import { thirdPartyKeys } from '../integrations';

/** The resources of third-party keys and DNS (issue 4), merged into resources/index.ts. */
export const dnsResources = {
  thirdpartykeys: thirdPartyKeys,
  'dns-accounts': dnsAccounts,
  'dns-zones': dnsZones,
  'dns-records': dnsRecords,
} as const satisfies Record<string, ResourceDef>;
