import type { RouteDef } from '../../src/routes/types';

/**
 * The admin area's servers and user profiles (issue 26). Admin staff open both (spec 6: they
 * keep Users and Servers); the shell's admin menu already lists Servers.
 */
export const routes: readonly RouteDef[] = [
  {
    path: '/admin/servers',
    layout: 'admin',
    access: 'staff',
    title: 'Servers',
    page: () => import('./AdminServersPage'),
  },
  {
    path: '/admin/user-profile/:id',
    layout: 'admin',
    access: 'staff',
    title: 'User profile',
    page: () => import('./UserProfilePage'),
  },
];
