import type { RouteDef } from '../types';

/** The pages of referrals (issue 4). */
export const referralsRoutes: readonly RouteDef[] = [];
