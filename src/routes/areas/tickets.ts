import type { RouteDef } from '../types';

/** The pages of support tickets (issue 4). */
export const ticketsRoutes: readonly RouteDef[] = [];
