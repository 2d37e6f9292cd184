import type { RouteDef } from '../../src/routes/types';

/** The system users page of a server (spec "System users", server layout). */
export const routes: RouteDef[] = [
  {
    path: '/system-users/:id',
    layout: 'webApp',
    access: 'user',
    title: 'System users',
    page: () => import('./SystemUsersPage'),
  },
];
