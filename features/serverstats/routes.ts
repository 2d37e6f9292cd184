import type { RouteDef } from '../../src/routes/types';

/**
 * The statistics page of a server (spec "Server stats", server layout): the history the
 * platform keeps of each server's reports (the servers resource's `stats`).
 */
export const routes: RouteDef[] = [
  {
    path: '/server-stats/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Server statistics',
    page: () => import('./ServerStatsPage'),
  },
];
