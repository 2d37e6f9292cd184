import { DnsService } from '../dns/service';
import { ThirdPartyKeyRepository } from '../repositories/thirdPartyKeys';
import type { ServiceDeps } from '../services';

/** The repositories and clients of third-party keys and DNS (issue 4), merged into `app.services`. */
export interface DnsServices {
  thirdPartyKeys: ThirdPartyKeyRepository;
  dns: DnsService;
}

export function createDnsServices(deps: ServiceDeps): DnsServices {
  const thirdPartyKeys = new ThirdPartyKeyRepository(deps.db, deps.box);
  return { thirdPartyKeys, dns: new DnsService(deps.db, deps.config, thirdPartyKeys) };
}
