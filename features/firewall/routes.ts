import type { RouteDef } from '../../src/routes/types';

/** The server's firewall page (spec /security/{id}, server layout). */
export const routes: RouteDef[] = [
  {
    path: '/security/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Security',
    page: () => import('./SecurityPage'),
  },
];
