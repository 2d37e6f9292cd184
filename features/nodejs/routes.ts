import type { RouteDef } from '../../src/routes/types';

/** The Node.js pages: its installer (spec /install-nodejs/{id}). */
export const routes: RouteDef[] = [
  {
    path: '/install-nodejs/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install Node.js',
    page: () => import('./InstallNodejsPage'),
  },
];
