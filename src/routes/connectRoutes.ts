import type { RouteDef } from './types';

/** Connecting, installing and removing a server: profile-layout pages. */
export const connectRoutes: readonly RouteDef[] = [];
