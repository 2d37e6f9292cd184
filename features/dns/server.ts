import * as dns from '../../server/db/migrations/0004_dns';
import { defineServerFeature } from '../../server/feature';
import { dnsAccountHandlers, thirdPartyKeyHandlers } from '../../server/handlers/dns/keys';
import { dnsRecordHandlers, dnsZoneHandlers } from '../../server/handlers/dns/zones';
import { DnsAccounts } from '../../server/dns/accounts';
import { DnsService } from '../../server/dns/service';
import { type OutboundPolicy, outboundPolicy } from '../../server/http/outbound';
import { CredentialCheck } from '../../server/integrations/credentials';
import { ThirdPartyKeyRepository } from '../../server/repositories/thirdPartyKeys';
import type { ServiceDeps } from '../../server/serviceDeps';

/** The repositories and clients of third-party keys and DNS (issue 4). */
export interface DnsServices {
  thirdPartyKeys: ThirdPartyKeyRepository;
  /** The check of a credential before it is stored. */
  credentials: CredentialCheck;
  /** Stored DNS provider accounts and their clients. */
  dnsAccounts: DnsAccounts;
  /** Zones and records at those accounts. */
  dns: DnsService;
  /** Connections to addresses users give (server/http/outbound.ts); closed with the app. */
  outbound: OutboundPolicy;
}

export function createDnsServices(deps: ServiceDeps): DnsServices {
  const thirdPartyKeys = new ThirdPartyKeyRepository(deps.db, deps.box);
  const outbound = outboundPolicy(deps.config.outboundAllow);
  const dnsAccounts = new DnsAccounts(deps.config, thirdPartyKeys, outbound);
  return {
    thirdPartyKeys,
    credentials: new CredentialCheck(deps.config, dnsAccounts, outbound),
    dnsAccounts,
    dns: new DnsService(deps.db, dnsAccounts),
    outbound,
  };
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends DnsServices {}
}

/** The panel side of the feature (issue 4's account area). */
export const server = defineServerFeature({
  handlers: [thirdPartyKeyHandlers, dnsAccountHandlers, dnsZoneHandlers, dnsRecordHandlers],
  migrations: { '0004_dns': dns },
  services: createDnsServices,
});
