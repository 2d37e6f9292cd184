import type { RouteDef } from '../../src/routes/types';

/** The admins' app-release catalogue (issue 11); admin staff do not see it. */
export const routes: RouteDef[] = [
  {
    path: '/admin/app-releases',
    layout: 'admin',
    access: 'admin',
    title: 'App releases',
    page: () => import('./AdminAppReleasesPage'),
  },
  {
    path: '/admin/add-app-release',
    layout: 'admin',
    access: 'admin',
    title: 'Add an app release',
    page: () => import('./AdminAddAppReleasePage'),
  },
  {
    path: '/admin/edit-app-release/:id',
    layout: 'admin',
    access: 'admin',
    title: 'Edit app release',
    page: () => import('./AdminEditAppReleasePage'),
  },
];
