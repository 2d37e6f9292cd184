import { DnsAccounts } from '../dns/accounts';
import { DnsService } from '../dns/service';
import { type OutboundPolicy, outboundPolicy } from '../http/outbound';
import { CredentialCheck } from '../integrations/credentials';
import { ThirdPartyKeyRepository } from '../repositories/thirdPartyKeys';
import type { ServiceDeps } from '../serviceDeps';

/** The repositories and clients of third-party keys and DNS (issue 4), merged into `app.services`. */
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
