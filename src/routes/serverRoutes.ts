import type { RouteDef } from './types';

/** Server-level pages: the spec's web-page layout, the server id in the path. */
export const serverRoutes: readonly RouteDef[] = [];
