import type { RouteDef } from '../../src/routes/types';

/** phpMyAdmin's installer page (spec /install-phpmyadmin/{id}). */
export const routes: RouteDef[] = [
  {
    path: '/install-phpmyadmin/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install phpMyAdmin',
    page: () => import('./InstallPhpMyAdminPage'),
  },
];
