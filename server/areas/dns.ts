import type { ServiceDeps } from '../services';

/** The repositories and clients of third-party keys and DNS (issue 4), merged into `app.services`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the area lands
export interface DnsServices {}

export function createDnsServices(deps: ServiceDeps): DnsServices {
  void deps;
  return {};
}
