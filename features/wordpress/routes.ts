import type { RouteDef } from '../../src/routes/types';

/** The WordPress pages: its installer (spec /install-wordpress/{id}). */
export const routes: RouteDef[] = [
  {
    path: '/install-wordpress/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install WordPress',
    page: () => import('./InstallWordPressPage'),
  },
];
