import type { RouteDef } from '../../src/routes/types';

/** The admins' settings pages (spec s.2); admin staff do not see them (s.6). */
export const routes: RouteDef[] = [
  {
    path: '/admin/module-sittings',
    layout: 'admin',
    access: 'admin',
    title: 'Module settings',
    page: () => import('./ModuleSettingsPage'),
  },
  {
    path: '/admin/api',
    layout: 'admin',
    access: 'admin',
    title: 'API',
    page: () => import('./ApiCredentialsPage'),
  },
  {
    path: '/admin/add-api',
    layout: 'admin',
    access: 'admin',
    title: 'Add an API credential',
    page: () => import('./AddApiCredentialPage'),
  },
];
