import type { RouteDef } from '../../src/routes/types';

/** The packages pages (spec s.2 admin routes); admin staff do not see Packages (s.6). */
export const routes: RouteDef[] = [
  {
    path: '/admin/packages',
    layout: 'admin',
    access: 'admin',
    title: 'Packages',
    page: () => import('./AdminPackagesPage'),
  },
  {
    path: '/admin/add-main-package/:id',
    layout: 'admin',
    access: 'admin',
    title: 'Edit package',
    page: () => import('./AdminMainPackagePage'),
  },
  {
    path: '/admin/add-addon-package',
    layout: 'admin',
    access: 'admin',
    title: 'Add an add-on package',
    page: () => import('./AdminAddonPackagePage'),
  },
];
