import type { RouteDef } from '../../src/routes/types';

/**
 * The EasyPHP pages (spec sections 2, 6): a server's PHP extensions (server layout), the main
 * sidebar's entry that leads to a server's, and the admins' catalogue (admin staff do not see it).
 */
export const routes: RouteDef[] = [
  {
    path: '/easy-php/:id',
    layout: 'webApp',
    access: 'user',
    title: 'EasyPHP',
    page: () => import('./EasyPhpPage'),
  },
  {
    path: '/easyphp',
    layout: 'main',
    access: 'user',
    title: 'EasyPHP',
    page: () => import('./EasyPhpServersPage'),
  },
  {
    path: '/admin/php-management',
    layout: 'admin',
    access: 'admin',
    title: 'PHP extensions',
    page: () => import('./AdminExtensionsPage'),
  },
  {
    path: '/admin/add-extension',
    layout: 'admin',
    access: 'admin',
    title: 'Add a PHP extension',
    page: () => import('./AdminAddExtensionPage'),
  },
  {
    path: '/admin/edit-extension/:id',
    layout: 'admin',
    access: 'admin',
    title: 'Edit PHP extension',
    page: () => import('./AdminEditExtensionPage'),
  },
];
