import { dnsAccounts, dnsRecords, dnsZones } from '../../resources/dns';
import type { ResourceDef } from '../../resources/define';
import { thirdPartyKeys } from '../../resources/integrations';

/** The resources of third-party keys and DNS (issue 4). */
export const resources = {
  thirdpartykeys: thirdPartyKeys,
  'dns-accounts': dnsAccounts,
  'dns-zones': dnsZones,
  'dns-records': dnsRecords,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
