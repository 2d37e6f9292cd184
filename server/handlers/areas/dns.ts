import type { BoundHandlers } from '../../http/handlers';

/** The server side of resources/areas/dns.ts. */
export const dnsHandlers: readonly BoundHandlers[] = [];
