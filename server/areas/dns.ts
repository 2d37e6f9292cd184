import { DnsAccounts } from '../dns/accounts';
import { DnsService } from '../dns/service';
import { ThirdPartyKeyRepository } from '../repositories/thirdPartyKeys';
import type { ServiceDeps } from '../services';

/** The repositories and clients of third-party keys and DNS (issue 4), merged into `app.services`. */
export interface DnsServices {
  thirdPartyKeys: ThirdPartyKeyRepository;
  /** Stored DNS provider accounts and their clients. */
  dnsAccounts: DnsAccounts;
  /** Zones and records at those accounts. */
  dns: DnsService;
}

export function createDnsServices(deps: ServiceDeps): DnsServices {
  const thirdPartyKeys = new ThirdPartyKeyRepository(deps.db, deps.box);
  const dnsAccounts = new DnsAccounts(deps.config, thirdPartyKeys);
  return { thirdPartyKeys, dnsAccounts, dns: new DnsService(deps.db, dnsAccounts) };
}
