import type { BoundHandlers } from '../../http/handlers';
import { dnsAccountHandlers, thirdPartyKeyHandlers } from '../dns/keys';
import { dnsRecordHandlers, dnsZoneHandlers } from '../dns/zones';

/** The server side of resources/areas/dns.ts. */
export const dnsHandlers: readonly BoundHandlers[] = [
  thirdPartyKeyHandlers,
  dnsAccountHandlers,
  dnsZoneHandlers,
  dnsRecordHandlers,
];
