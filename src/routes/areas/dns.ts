import type { RouteDef } from '../types';

/** The pages of third-party keys and DNS (issue 4). */
export const dnsRoutes: readonly RouteDef[] = [];
