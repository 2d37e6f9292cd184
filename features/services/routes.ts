import type { RouteDef } from '../../src/routes/types';

/** The services page of a server (spec "Services", server layout). */
export const routes: RouteDef[] = [
  {
    path: '/services/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Services',
    page: () => import('./ServicesPage'),
  },
];
