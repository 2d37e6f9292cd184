import type { RouteDef } from '../types';

/** The pages of teams (issue 4). */
export const teamsRoutes: readonly RouteDef[] = [];
